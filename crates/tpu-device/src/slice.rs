//! Slices: chips arranged on 1 to 3 axes (`4`, `2x2`, `8x16`, `4x4x4`), with
//! the generation's wraparound rules deciding which axes are rings. Chips are
//! numbered row-major (the last axis varies fastest). A link joins a chip to
//! its next neighbour along an axis; it carries `ici_link_bandwidth` in each
//! direction. `SliceLayout` is a slice as the page draws it: every chip's
//! coordinates and every link, so no embedder restates these rules.

use crate::chip::{Chip, Topology, Wrap};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SliceError {
    #[error(
        "cannot read slice shape '{0}': expected axis lengths joined by 'x', like 4x4 or 2x2x4"
    )]
    Syntax(String),
    #[error("a slice axis cannot have length 0")]
    Empty,
    #[error("{chip} slices have at most {max} axes; '{shape}' has {got}")]
    TooManyAxes {
        chip: &'static str,
        shape: String,
        max: usize,
        got: usize,
    },
    #[error("{chip} slices have at most {max} chips; '{shape}' has {got}")]
    TooManyChips {
        chip: &'static str,
        shape: String,
        max: usize,
        got: usize,
    },
    #[error("{chip} slice axes are at most {max:?} chips long; '{shape}' does not fit")]
    AxisTooLong {
        chip: &'static str,
        shape: String,
        max: Vec<usize>,
    },
    #[error("{chip} chips are connected by {topology}, which this model does not simulate")]
    Unmodelled {
        chip: &'static str,
        topology: &'static str,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Slice {
    /// Axis lengths.
    pub dims: Vec<usize>,
    /// Per axis, whether it has wraparound links (a ring, not a line).
    pub wrap: Vec<bool>,
}

/// One ICI link: it joins chip `from` to its next neighbour `to` along
/// `axis`. A wraparound link closes a ring, from the last chip of the axis
/// back to the first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct IciLink {
    pub from: usize,
    pub to: usize,
    pub axis: usize,
    pub wraparound: bool,
}

/// A slice as it is drawn: its axes, each chip's coordinates (chip `c` is
/// `chips[c]`) and every link.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SliceLayout {
    /// Axis lengths (`[4, 4]`).
    pub dims: Vec<usize>,
    /// Per axis, whether it has wraparound links.
    pub wrap: Vec<bool>,
    pub chips: Vec<Vec<usize>>,
    /// In the order of `Slice::links`.
    pub links: Vec<IciLink>,
}

impl Slice {
    /// The slice `shape` of `chip`'s generation, or why it cannot exist.
    pub fn new(chip: &Chip, shape: &str) -> Result<Slice, SliceError> {
        let dims: Vec<usize> = shape
            .trim()
            .split(['x', 'X'])
            .map(|d| d.trim().parse::<usize>())
            .collect::<Result<_, _>>()
            .map_err(|_| SliceError::Syntax(shape.to_string()))?;
        if dims.is_empty() || dims.len() > 3 {
            return Err(SliceError::Syntax(shape.to_string()));
        }
        if dims.contains(&0) {
            return Err(SliceError::Empty);
        }
        let (max_dims, max_axis, max_chips, wrap) = match chip.topology {
            Topology::Torus {
                dims,
                max_axis,
                max_chips,
                wrap,
            } => (dims, max_axis, max_chips, wrap),
            Topology::Unmodelled { name } => {
                return Err(SliceError::Unmodelled {
                    chip: chip.name,
                    topology: name,
                });
            }
        };
        if dims.len() > max_dims {
            return Err(SliceError::TooManyAxes {
                chip: chip.name,
                shape: shape.to_string(),
                max: max_dims,
                got: dims.len(),
            });
        }
        let chips: usize = dims.iter().product();
        if chips > max_chips {
            return Err(SliceError::TooManyChips {
                chip: chip.name,
                shape: shape.to_string(),
                max: max_chips,
                got: chips,
            });
        }
        // The longest axis against the longest allowed, and so on down.
        let mut sorted = dims.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let mut limits: Vec<usize> = max_axis[..max_dims].to_vec();
        limits.sort_unstable_by(|a, b| b.cmp(a));
        if sorted.iter().zip(&limits).any(|(d, m)| d > m) {
            return Err(SliceError::AxisTooLong {
                chip: chip.name,
                shape: shape.to_string(),
                max: max_axis[..max_dims].to_vec(),
            });
        }
        let wrap = match wrap {
            Wrap::EachAxis(m) => dims.iter().map(|&d| d >= m && d % m == 0).collect(),
            Wrap::WholeCubes(m) => {
                let cubes = dims.len() == max_dims && dims.iter().all(|&d| d >= m && d % m == 0);
                vec![cubes; dims.len()]
            }
        };
        Ok(Slice { dims, wrap })
    }

    /// A slice with the given axes and wraparound, for tests and custom chips.
    pub fn with_dims(dims: Vec<usize>, wrap: Vec<bool>) -> Slice {
        assert_eq!(dims.len(), wrap.len());
        Slice { dims, wrap }
    }

    pub fn chips(&self) -> usize {
        self.dims.iter().product()
    }

    pub fn axes(&self) -> usize {
        self.dims.len()
    }

    /// The stride of `axis` in chip numbering.
    pub fn stride(&self, axis: usize) -> usize {
        self.dims[axis + 1..].iter().product()
    }

    /// The coordinate of chip `c` along `axis`.
    pub fn coord(&self, c: usize, axis: usize) -> usize {
        (c / self.stride(axis)) % self.dims[axis]
    }

    /// Chip `c`'s coordinates, one per axis.
    pub fn coords(&self, c: usize) -> Vec<usize> {
        (0..self.axes()).map(|a| self.coord(c, a)).collect()
    }

    /// Where the link from chip `c` along `axis` is counted in per-link
    /// tables such as `Simulation::link_bytes` (two entries, one per
    /// direction, from twice this index). Chips without that link keep the
    /// slot, so the table is a plain grid.
    pub fn link_slot(&self, c: usize, axis: usize) -> usize {
        c * self.axes() + axis
    }

    /// Every link, chip by chip and axis by axis.
    pub fn links(&self) -> Vec<IciLink> {
        let mut links = Vec::new();
        for c in 0..self.chips() {
            for axis in 0..self.axes() {
                if !self.has_link(c, axis) {
                    continue;
                }
                let stride = self.stride(axis);
                let here = self.coord(c, axis);
                let next = (here + 1) % self.dims[axis];
                links.push(IciLink {
                    from: c,
                    to: c - here * stride + next * stride,
                    axis,
                    wraparound: next == 0,
                });
            }
        }
        links
    }

    /// The slice as it is drawn (see `SliceLayout`).
    pub fn layout(&self) -> SliceLayout {
        SliceLayout {
            dims: self.dims.clone(),
            wrap: self.wrap.clone(),
            chips: (0..self.chips()).map(|c| self.coords(c)).collect(),
            links: self.links(),
        }
    }

    /// Whether chip `c` has a link to its next neighbour along `axis`.
    pub fn has_link(&self, c: usize, axis: usize) -> bool {
        let n = self.dims[axis];
        n > 1 && (self.wrap[axis] || self.coord(c, axis) + 1 < n)
    }

    /// Links on each axis (each joins two chips and carries both directions).
    pub fn links_per_axis(&self) -> Vec<usize> {
        (0..self.axes())
            .map(|a| {
                let n = self.dims[a];
                let per_line = match n {
                    1 => 0,
                    _ if self.wrap[a] => n,
                    _ => n - 1,
                };
                per_line * self.chips() / n
            })
            .collect()
    }

    /// The shape as written: `4x4x4`.
    /// The smallest slice of `chip`'s generation with at least `chips`
    /// chips, as `torchrun --nproc-per-node N` gets one chip per rank: the
    /// fewest chips, then the squarest (shortest longest axis), with as many
    /// axes as the generation has (`2x2x1` is a v4's 4 chips); among equals
    /// the longer axes come last (`2x4`).
    pub fn smallest_with(chip: &Chip, chips: usize) -> Result<Slice, String> {
        let axes = match chip.topology {
            Topology::Torus { dims, .. } => dims,
            Topology::Unmodelled { name } => {
                return Err(format!("{} has no modelled slices ({name})", chip.name));
            }
        };
        let sizes: Vec<usize> = (0..12).map(|p| 1usize << p).collect();
        let mut best: Option<(usize, usize, Vec<usize>)> = None;
        let mut shape = vec![0; axes];
        let total = sizes.len().pow(axes as u32);
        for code in 0..total {
            let mut c = code;
            for d in shape.iter_mut() {
                *d = sizes[c % sizes.len()];
                c /= sizes.len();
            }
            let n: usize = shape.iter().product();
            if n < chips || !shape.windows(2).all(|w| w[0] <= w[1]) {
                continue;
            }
            let longest = *shape.iter().max().unwrap_or(&1);
            let key = (n, longest, shape.clone());
            let name = shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("x");
            if Slice::new(chip, &name).is_ok() && best.as_ref().is_none_or(|b| key < *b) {
                best = Some(key);
            }
        }
        let (_, _, dims) =
            best.ok_or_else(|| format!("no {} slice has {chips} chips", chip.name))?;
        let name = dims
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        Slice::new(chip, &name).map_err(|e| e.to_string())
    }

    pub fn name(&self) -> String {
        self.dims
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::preset;

    #[test]
    fn the_smallest_slice_for_n_ranks_is_the_squarest_with_enough_chips() {
        let v5e = preset("v5e").unwrap();
        let name = |n| Slice::smallest_with(&v5e, n).unwrap().name();
        assert_eq!(name(1), "1x1");
        assert_eq!(name(2), "1x2");
        assert_eq!(name(4), "2x2");
        assert_eq!(name(8), "2x4");
        assert_eq!(name(64), "8x8");
        let v4 = preset("v4").unwrap();
        assert_eq!(Slice::smallest_with(&v4, 8).unwrap().name(), "2x2x2");
        assert_eq!(Slice::smallest_with(&v4, 3).unwrap().chips(), 4);
        assert!(Slice::smallest_with(&v5e, 1000).is_err());
    }

    #[test]
    fn wraparound_follows_each_generation() {
        let v5e = preset("v5e").unwrap();
        assert_eq!(Slice::new(&v5e, "16x16").unwrap().wrap, [true, true]);
        assert_eq!(Slice::new(&v5e, "8x16").unwrap().wrap, [false, true]);
        assert_eq!(Slice::new(&v5e, "4").unwrap().wrap, [false]);
        let v4 = preset("v4").unwrap();
        assert_eq!(Slice::new(&v4, "4x4x8").unwrap().wrap, [true, true, true]);
        assert_eq!(Slice::new(&v4, "2x2x4").unwrap().wrap, [false, false, true]);
        let v5p = preset("v5p").unwrap();
        assert_eq!(Slice::new(&v5p, "4x4x4").unwrap().wrap, [true; 3]);
        assert_eq!(Slice::new(&v5p, "2x4x4").unwrap().wrap, [false; 3]);
        assert_eq!(Slice::new(&v5p, "16x20x28").unwrap().chips(), 8960);
        let ironwood = preset("tpu7x").unwrap();
        assert_eq!(Slice::new(&ironwood, "16x24x24").unwrap().chips(), 9216);
    }

    #[test]
    fn impossible_shapes_are_refused_with_a_reason() {
        let v5e = preset("v5e").unwrap();
        let err = |chip: &Chip, s: &str| Slice::new(chip, s).unwrap_err().to_string();
        assert_eq!(
            err(&v5e, "4x4x4"),
            "TPU v5e slices have at most 2 axes; '4x4x4' has 3"
        );
        assert_eq!(
            err(&v5e, "32x16"),
            "TPU v5e slices have at most 256 chips; '32x16' has 512"
        );
        assert!(err(&v5e, "32x2").contains("at most [16, 16] chips long"));
        assert!(err(&v5e, "4by4").contains("cannot read slice shape"));
        assert_eq!(err(&v5e, "0x4"), "a slice axis cannot have length 0");
        let v8i = preset("tpu8i").unwrap();
        assert!(err(&v8i, "4x4").contains("Boardfly"));
    }

    #[test]
    fn a_layout_lists_each_chip_and_link_once_with_its_wraparound() {
        let v5e = preset("v5e").unwrap();
        // 2x16: a line of 2 on axis 0, a ring of 16 on axis 1.
        let layout = Slice::new(&v5e, "2x16").unwrap().layout();
        assert_eq!(layout.wrap, [false, true]);
        assert_eq!(layout.chips[17], [1, 1]);
        assert_eq!(layout.links.len(), 16 + 32);
        let link = |from, axis| {
            layout
                .links
                .iter()
                .find(|l| l.from == from && l.axis == axis)
        };
        let wraps = |from, to, axis| IciLink {
            from,
            to,
            axis,
            wraparound: true,
        };
        assert_eq!(link(15, 1), Some(&wraps(15, 0, 1)));
        assert_eq!(link(31, 1), Some(&wraps(31, 16, 1)));
        assert_eq!(link(3, 0).map(|l| (l.to, l.wraparound)), Some((19, false)));
        // The second row has no link onward along the line.
        assert_eq!(link(19, 0), None);
        let v4 = preset("v4").unwrap();
        let cube = Slice::new(&v4, "4x4x4").unwrap();
        assert_eq!(
            cube.links().len(),
            cube.links_per_axis().iter().sum::<usize>()
        );
    }

    #[test]
    fn links_count_rings_and_lines() {
        let v5e = preset("v5e").unwrap();
        // 16x16 torus: 16 rings of 16 links on each axis.
        assert_eq!(
            Slice::new(&v5e, "16x16").unwrap().links_per_axis(),
            [256, 256]
        );
        // 4x4 mesh: 4 lines of 3 links on each axis.
        assert_eq!(Slice::new(&v5e, "4x4").unwrap().links_per_axis(), [12, 12]);
    }
}
