//! stub

use super::source::{driver, Source};
use super::Rule;

pub(super) const DRV_TILED: Source = driver("cuTensorMapEncodeTiled");

pub(super) const LIST: &[Rule] = &[];
