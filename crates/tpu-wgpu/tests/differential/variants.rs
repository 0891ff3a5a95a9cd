//! Every variant of an enum, read from serde: the differential test's
//! matches are exhaustive at compile time, and these lists make every arm run.

use serde::de::DeserializeOwned;

/// Every variant of an enum of unit variants, read from the names serde
/// lists when asked for a variant that does not exist: the sub-enums' matches
/// above are exhaustive, and this makes each of their arms run.
pub fn every<T: DeserializeOwned>() -> Vec<T> {
    variant_names::<T>(r#""?""#)
        .iter()
        .map(|name| serde_json::from_str(&format!("\"{name}\"")).unwrap())
        .collect()
}

/// The variant names in serde's "unknown variant `?`, expected one of `a`,
/// `b`" error for `probe`.
pub fn variant_names<T: DeserializeOwned>(probe: &str) -> Vec<String> {
    let error = serde_json::from_str::<T>(probe).err().unwrap().to_string();
    error
        .split('`')
        .skip(3)
        .step_by(2)
        .map(str::to_string)
        .collect()
}
