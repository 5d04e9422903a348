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

/// The cluster-wide form: rank 0 of each cluster asks with `try_cancel.multicast::cluster::all`,
/// every CTA decodes the broadcast response after its own barrier, arrives on rank 0's empty
/// barrier, and writes the first CTA of every cluster it worked on (its own, then each
/// canceled one's, offset by its rank) to `out[ctaid * max + i]`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn whole_clc_broadcast(out: u64, max: u32) {
    use smemdesc::clc::{ClcCastNext, ClcCluster, ClcRole};
    let base = smem_dyn();
    let Ok(cluster) = ClcCluster::new(base, base + 16, base + 24, 2) else { trap() };
    if tid() == 0 {
        cluster.init::<Spin>();
    }
    cluster.init_sync::<Spin>();
    if tid() != 0 {
        return;
    }
    let rank = cluster_ctarank();
    let row = out + 4 * (ctaid() as u64) * (max as u64);
    st_global_u32(row, ctaid());
    let mut i = 1;
    match cluster.role(rank) {
        ClcRole::Issuer(mut issuer) => {
            while i < max {
                let Some(resp) = issuer.request::<Spin>().wait::<Spin>() else { return };
                match resp.next::<Spin>() {
                    ClcCastNext::Canceled { first_cta, then } => {
                        st_global_u32(row + 4 * i as u64, first_cta[0] + rank);
                        let Some(next) = then.wait_readers::<Spin>() else { return };
                        issuer = next;
                    }
                    ClcCastNext::Exhausted => return,
                }
                i += 1;
            }
        }
        ClcRole::Listener(mut listener) => {
            while i < max {
                let Some(resp) = listener.expect::<Spin>().wait::<Spin>() else { return };
                match resp.next::<Spin>() {
                    ClcCastNext::Canceled { first_cta, then } => {
                        st_global_u32(row + 4 * i as u64, first_cta[0] + rank);
                        listener = then;
                    }
                    ClcCastNext::Exhausted => return,
                }
                i += 1;
            }
        }
    }
}
