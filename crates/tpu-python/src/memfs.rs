//! The files a program sees where there is no host file system (the
//! browser): an in-memory tree of directories and files, one per thread,
//! kept between runs, which the embedder fills and reads (the page's Files
//! panel) and the `posix` module of `posix.rs` serves to the program.
//!
//! It is a store, not a file system: paths reach it absolute and normalised
//! (`/home/user/input.txt`), and the checks that give each call its `errno`
//! (a missing parent, a directory that is not empty) are made by `posix.py`,
//! as a kernel makes them above its storage. Files are inodes: a name maps to
//! one, and an open file keeps its inode when its name is unlinked (as
//! `tempfile.TemporaryFile` relies on), until the next run begins.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

/// Where a program starts (`os.getcwd()`) and where the embedder's files go.
pub const HOME: &str = "/home/user";

/// The folders every run finds.
const FOLDERS: &[&str] = &["/", "/home", HOME, "/tmp"];

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    File { data: Vec<u8>, mtime_ns: i64 },
    Folder { mtime_ns: i64 },
}

/// One file as the embedder lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    pub path: String,
    pub size: usize,
}

#[derive(Debug)]
struct Tree {
    nodes: HashMap<u64, Node>,
    names: BTreeMap<String, u64>,
    next: u64,
}

impl Default for Tree {
    fn default() -> Self {
        let mut tree = Tree {
            nodes: HashMap::new(),
            names: BTreeMap::new(),
            next: 1,
        };
        for folder in FOLDERS {
            tree.add(folder, Node::Folder { mtime_ns: 0 });
        }
        tree
    }
}

impl Tree {
    fn add(&mut self, path: &str, node: Node) -> u64 {
        let ino = self.next;
        self.next += 1;
        self.nodes.insert(ino, node);
        if let Some(old) = self.names.insert(path.to_owned(), ino) {
            self.nodes.remove(&old);
        }
        ino
    }

    /// The names directly inside `folder`, sorted.
    fn children(&self, folder: &str) -> Vec<String> {
        let prefix = if folder == "/" {
            "/".to_owned()
        } else {
            format!("{folder}/")
        };
        self.names
            .range(prefix.clone()..)
            .take_while(|(name, _)| name.starts_with(&prefix))
            .map(|(name, _)| &name[prefix.len()..])
            .filter(|rest| !rest.is_empty() && !rest.contains('/'))
            .map(str::to_owned)
            .collect()
    }

    /// Drops the inodes no name reaches (files unlinked while open).
    fn collect(&mut self) {
        let named: std::collections::HashSet<u64> = self.names.values().copied().collect();
        self.nodes.retain(|ino, _| named.contains(ino));
    }
}

thread_local! {
    static TREE: RefCell<Tree> = RefCell::new(Tree::default());
    /// Runs under way on this thread (several, as parked ranks: `park.rs`).
    static RUNS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn with<R>(f: impl FnOnce(&mut Tree) -> R) -> R {
    TREE.with(|t| f(&mut t.borrow_mut()))
}

/// The parent folder of an absolute path (`/` for `/x`).
fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

/// An absolute, normalised path from one the embedder was given (relative
/// ones are under [`HOME`]); `None` if it leaves the root or names nothing.
pub fn normalise(path: &str) -> Option<String> {
    let joined = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{HOME}/{path}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

// ---- The embedder's side: the page's Files panel and the npm API.

/// Every file (not folder), sorted by path.
pub fn list() -> Vec<FileInfo> {
    with(|t| {
        t.names
            .iter()
            .filter_map(|(path, ino)| match t.nodes.get(ino) {
                Some(Node::File { data, .. }) => Some(FileInfo {
                    path: path.clone(),
                    size: data.len(),
                }),
                _ => None,
            })
            .collect()
    })
}

/// A file's bytes.
pub fn read(path: &str) -> Option<Vec<u8>> {
    let path = normalise(path)?;
    with(|t| match t.nodes.get(t.names.get(&path)?)? {
        Node::File { data, .. } => Some(data.clone()),
        Node::Folder { .. } => None,
    })
}

/// Puts a file at `path` (relative ones under [`HOME`]), making its folders;
/// fails where a folder already has that name or a file stands in the way.
pub fn write(path: &str, data: Vec<u8>, mtime_ns: i64) -> Result<String, String> {
    let path = normalise(path)
        .filter(|p| p != "/")
        .ok_or("not a file name")?;
    with(|t| {
        let mut folders = Vec::new();
        let mut folder = parent(&path);
        loop {
            match t.names.get(folder).and_then(|ino| t.nodes.get(ino)) {
                Some(Node::Folder { .. }) => break,
                Some(Node::File { .. }) => return Err(format!("{folder} is a file")),
                None => folders.push(folder.to_owned()),
            }
            folder = parent(folder);
        }
        if let Some(Node::Folder { .. }) = t.names.get(&path).and_then(|ino| t.nodes.get(ino)) {
            return Err(format!("{path} is a folder"));
        }
        for folder in folders.into_iter().rev() {
            t.add(&folder, Node::Folder { mtime_ns });
        }
        t.add(&path, Node::File { data, mtime_ns });
        Ok(path)
    })
}

/// Removes a file, or a folder and everything in it; whether it was there.
pub fn remove(path: &str) -> bool {
    let Some(path) = normalise(path) else {
        return false;
    };
    if FOLDERS.contains(&path.as_str()) {
        return false;
    }
    with(|t| {
        let inside = format!("{path}/");
        let before = t.names.len();
        t.names
            .retain(|name, _| name != &path && !name.starts_with(&inside));
        t.collect();
        t.names.len() != before
    })
}

/// Empties the tree back to its first folders.
pub fn clear() {
    with(|t| *t = Tree::default());
}

/// Called as a run begins: inodes kept for files unlinked while open go,
/// unless another run still under way may hold one. The run lasts while
/// the guard lives.
pub(crate) fn begin_run() -> RunGuard {
    if RUNS.with(|r| r.replace(r.get() + 1)) == 0 {
        with(Tree::collect);
    }
    RunGuard
}

pub(crate) struct RunGuard;

impl Drop for RunGuard {
    fn drop(&mut self) {
        RUNS.with(|r| r.set(r.get().saturating_sub(1)));
    }
}

// ---- `posix.py`'s side, through `posix.rs`: inodes by number.

pub(crate) fn lookup(path: &str) -> Option<u64> {
    with(|t| t.names.get(path).copied())
}

/// `(is_folder, size, mtime_ns)`.
pub(crate) fn info(ino: u64) -> Option<(bool, usize, i64)> {
    with(|t| {
        t.nodes.get(&ino).map(|node| match node {
            Node::File { data, mtime_ns } => (false, data.len(), *mtime_ns),
            Node::Folder { mtime_ns } => (true, 0, *mtime_ns),
        })
    })
}

pub(crate) fn create_file(path: &str, mtime_ns: i64) -> u64 {
    with(|t| {
        t.add(
            path,
            Node::File {
                data: Vec::new(),
                mtime_ns,
            },
        )
    })
}

pub(crate) fn create_folder(path: &str, mtime_ns: i64) -> u64 {
    with(|t| t.add(path, Node::Folder { mtime_ns }))
}

pub(crate) fn pread(ino: u64, offset: usize, n: usize) -> Vec<u8> {
    with(|t| match t.nodes.get(&ino) {
        Some(Node::File { data, .. }) if offset < data.len() => {
            data[offset..data.len().min(offset.saturating_add(n))].to_vec()
        }
        _ => Vec::new(),
    })
}

pub(crate) fn pwrite(ino: u64, offset: usize, bytes: &[u8], now_ns: i64) -> usize {
    with(|t| match t.nodes.get_mut(&ino) {
        Some(Node::File { data, mtime_ns }) => {
            let end = offset + bytes.len();
            if data.len() < end {
                data.resize(end, 0);
            }
            data[offset..end].copy_from_slice(bytes);
            *mtime_ns = now_ns;
            bytes.len()
        }
        _ => 0,
    })
}

pub(crate) fn truncate(ino: u64, size: usize, now_ns: i64) {
    with(|t| {
        if let Some(Node::File { data, mtime_ns }) = t.nodes.get_mut(&ino) {
            data.resize(size, 0);
            *mtime_ns = now_ns;
        }
    })
}

pub(crate) fn set_mtime(ino: u64, ns: i64) {
    with(|t| match t.nodes.get_mut(&ino) {
        Some(Node::File { mtime_ns, .. } | Node::Folder { mtime_ns }) => *mtime_ns = ns,
        None => {}
    })
}

/// The bytes all files hold.
pub(crate) fn used() -> usize {
    with(|t| {
        t.nodes
            .values()
            .map(|node| match node {
                Node::File { data, .. } => data.len(),
                Node::Folder { .. } => 0,
            })
            .sum()
    })
}

pub(crate) fn children(folder: &str) -> Vec<String> {
    with(|t| t.children(folder))
}

/// Removes one name (a file's, or an empty folder's: `posix.py` checks).
pub(crate) fn unlink(path: &str) {
    with(|t| {
        t.names.remove(path);
    })
}

/// Moves `from` (and, for a folder, everything under it) to `to`, replacing
/// what `to` named.
pub(crate) fn rename(from: &str, to: &str) {
    with(|t| {
        let inside = format!("{from}/");
        let moved: Vec<(String, u64)> = t
            .names
            .iter()
            .filter(|(name, _)| *name == from || name.starts_with(&inside))
            .map(|(name, ino)| (name.clone(), *ino))
            .collect();
        for (name, _) in &moved {
            t.names.remove(name);
        }
        for (name, ino) in moved {
            t.names.insert(format!("{to}{}", &name[from.len()..]), ino);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_under_home() {
        assert_eq!(normalise("input.txt").unwrap(), "/home/user/input.txt");
        assert_eq!(normalise("/a/./b/../c").unwrap(), "/a/c");
        assert_eq!(normalise("/").unwrap(), "/");
        assert_eq!(normalise("/.."), None);
    }

    #[test]
    fn the_embedder_writes_lists_reads_and_removes() {
        clear();
        assert_eq!(
            write("data/in.txt", b"hi".to_vec(), 5).unwrap(),
            "/home/user/data/in.txt"
        );
        assert_eq!(
            list(),
            vec![FileInfo {
                path: "/home/user/data/in.txt".into(),
                size: 2
            }]
        );
        assert_eq!(read("/home/user/data/in.txt").unwrap(), b"hi");
        assert_eq!(children("/home/user"), vec!["data"]);
        assert!(
            write("data", Vec::new(), 0).is_err(),
            "a folder has that name"
        );
        assert!(
            write("data/in.txt/x", Vec::new(), 0).is_err(),
            "a file is in the way"
        );
        assert!(remove("data"));
        assert!(list().is_empty());
        assert!(!remove("/tmp"), "the first folders stay");
    }

    #[test]
    fn an_open_inode_outlives_its_name_until_the_next_run() {
        clear();
        let ino = create_file("/tmp/t", 0);
        pwrite(ino, 3, b"ab", 7);
        assert_eq!(pread(ino, 0, 10), b"\0\0\0ab");
        unlink("/tmp/t");
        assert_eq!(lookup("/tmp/t"), None);
        assert_eq!(info(ino), Some((false, 5, 7)));
        begin_run();
        assert_eq!(info(ino), None);
    }

    #[test]
    fn a_folder_moves_with_its_contents() {
        clear();
        create_folder("/tmp/a", 0);
        let ino = create_file("/tmp/a/f", 0);
        rename("/tmp/a", "/tmp/b");
        assert_eq!(lookup("/tmp/b/f"), Some(ino));
        assert_eq!(lookup("/tmp/a/f"), None);
        assert_eq!(children("/tmp"), vec!["b"]);
    }
}
