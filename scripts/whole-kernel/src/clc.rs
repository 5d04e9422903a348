//! Cluster launch control (issue 46, item 5): a persistent sm100 kernel that takes its tiles
//! from the clusters it cancels (`smemdesc::clc`), each response read only after its barrier.

use crate::ptx::*;
use smemdesc::clc::{ClcNext, ClcScheduler};
use smemdesc::ptx::Spin;

/// Writes the first CTA of every cluster this CTA took over (its own first, then each canceled
/// one's) to `out[i]` until none is left; `out` holds `max` entries.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_clc_persistent(out: u64, max: u32) {
    let base = smem_dyn();
    let Ok(sched) = ClcScheduler::new(base, base + 16) else { trap() };
    if tid() == 0 {
        sched.init::<Spin>();
    }
    sync_threads();
    if tid() != 0 {
        return;
    }
    st_global_u32(out, ctaid());
    let mut next = sched;
    let mut i = 1;
    while i < max {
        let Some(resp) = next.request::<Spin>().wait::<Spin>() else { return };
        match resp.next::<Spin>() {
            ClcNext::Canceled { first_cta, scheduler } => {
                st_global_u32(out + 4 * i as u64, first_cta[0]);
                next = scheduler;
            }
            ClcNext::Exhausted => return,
        }
        i += 1;
    }
}
