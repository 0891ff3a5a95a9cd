//! `tpu run --cache-dir DIR`: the compilation cache persisted in a directory,
//! so that a later run finds the kernels an earlier one compiled.
//!
//! - Each kernel is `<backend>-<fingerprint>.json`, a `CacheEntry` (its key,
//!   name and generated source); the runtime checks that the key hashes to the
//!   fingerprint.
//! - The driver's pipeline cache (Vulkan natively: the compiled pipelines
//!   themselves), where there is one, is `<key>.bin`: the 64-bit FNV-1a
//!   checksum of the bytes (little-endian), then the bytes.
//!
//! A file that cannot be read or parsed, or whose checksum does not match, is
//! reported as corrupt and ignored, and what it held is rebuilt and written
//! again. Files are written to a temporary name and renamed, so a run that is
//! killed midway leaves no half-written entry.

use std::path::{Path, PathBuf};
use tpu_runtime::{CacheEntry, Runtime};

pub struct CacheDir {
    path: PathBuf,
}

impl CacheDir {
    pub fn open(path: &Path) -> std::io::Result<CacheDir> {
        std::fs::create_dir_all(path)?;
        Ok(CacheDir {
            path: path.to_path_buf(),
        })
    }

    /// Loads the persisted entries (and the driver's pipeline cache) into
    /// `runtime`, before a run.
    pub fn load_into(&self, runtime: &mut Runtime) {
        let mut entries = self.entries();
        if let Some(key) = runtime.driver_cache_key() {
            match self.driver_cache(&key) {
                Ok(bytes) => runtime.load_driver_cache(&bytes.unwrap_or_default()),
                Err(name) => {
                    entries.push(Err(name));
                    runtime.load_driver_cache(&[]);
                }
            }
        }
        runtime.load_cache(entries);
    }

    /// Writes what `runtime` compiled that the directory lacks, after a run.
    pub fn save_from(&self, runtime: &mut Runtime) -> std::io::Result<()> {
        for entry in runtime.take_cache_entries() {
            let json = serde_json::to_vec_pretty(&entry).expect("an entry is plain data");
            self.write(&entry.file_name(), &json)?;
        }
        if let (Some(key), Some(data)) = (runtime.driver_cache_key(), runtime.driver_cache_data()) {
            let mut bytes = tpu_ir::fnv1a(&data).to_le_bytes().to_vec();
            bytes.extend_from_slice(&data);
            self.write(&format!("{key}.bin"), &bytes)?;
        }
        Ok(())
    }

    fn entries(&self) -> Vec<Result<CacheEntry, String>> {
        let Ok(listing) = std::fs::read_dir(&self.path) else {
            return Vec::new();
        };
        let mut names: Vec<String> = listing
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json"))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|name| {
                std::fs::read(self.path.join(&name))
                    .ok()
                    .and_then(|bytes| serde_json::from_slice::<CacheEntry>(&bytes).ok())
                    .filter(|e| e.file_name() == name)
                    .ok_or(name)
            })
            .collect()
    }

    /// The driver cache's bytes: none if there is no file, `Err(name)` if its
    /// checksum does not match.
    fn driver_cache(&self, key: &str) -> Result<Option<Vec<u8>>, String> {
        let name = format!("{key}.bin");
        let Ok(bytes) = std::fs::read(self.path.join(&name)) else {
            return Ok(None);
        };
        if bytes.len() < 8 {
            return Err(name);
        }
        let (sum, data) = bytes.split_at(8);
        let sum = u64::from_le_bytes(sum.try_into().expect("eight bytes"));
        if sum == tpu_ir::fnv1a(data) {
            Ok(Some(data.to_vec()))
        } else {
            Err(name)
        }
    }

    fn write(&self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let temp = self
            .path
            .join(format!(".{name}.{}.tmp", std::process::id()));
        std::fs::write(&temp, bytes)?;
        std::fs::rename(&temp, self.path.join(name))
    }
}
