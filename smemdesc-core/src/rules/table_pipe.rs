//! stub

use super::Rule;

pub(super) const LIST: &[Rule] = &[];
