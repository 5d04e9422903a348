//! Every row of `tests/data/golden-tmem/` (CuTe's `make_fragment_C` + `make_tmem_copy`, copied
//! from `../shared/golden-tmem/`) through the core's Tensor Memory maps: the accumulator's
//! (lane, column) of every element and the (thread, register) a `tcgen05.ld` puts it in. Our
//! register order is CuTe's (see `smemdesc_core::tmem::map`), so rows are compared whole, which
//! implies the per-configuration (thread, m, n, lane, col) sets are equal.

use smemdesc::core::{AccumType, TmemAccum, TmemError, TmemLoad, TmemLoadMap};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden-tmem")
}

/// One configuration of tmem_configs.tsv.
pub struct Config {
    pub cfg: u32,
    pub cta_group: u32,
    pub m: u32,
    pub n: u32,
    pub load: String,
    pub regs_per_thread: u32,
    pub cols_used: u32,
}

fn configs() -> Vec<Config> {
    let text = std::fs::read_to_string(dir().join("tmem_configs.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(
        header,
        [
            "cfg",
            "cta_group",
            "mma_m",
            "mma_n",
            "accum",
            "load_op",
            "threads",
            "regs_per_thread",
            "cols_used"
        ]
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(
                (f[4], f[6]),
                ("f32", "128"),
                "a new accumulator type or thread count"
            );
            let n = |i: usize| f[i].parse::<u32>().unwrap();
            Config {
                cfg: n(0),
                cta_group: n(1),
                m: n(2),
                n: n(3),
                load: f[5].to_string(),
                regs_per_thread: n(7),
                cols_used: n(8),
            }
        })
        .collect()
}

/// cfg -> rows [thread, reg, m, n, lane, col] in file order.
fn epilogue() -> BTreeMap<u32, Vec<[u32; 6]>> {
    let text = std::fs::read_to_string(dir().join("tmem_epilogue.tsv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), "cfg\tthread\treg\tm\tn\tlane\tcol");
    let mut out: BTreeMap<u32, Vec<[u32; 6]>> = BTreeMap::new();
    for l in lines.filter(|l| !l.is_empty()) {
        let mut it = l.split('\t').map(|x| x.parse::<u32>().unwrap());
        let cfg = it.next().unwrap();
        let row: [u32; 6] = core::array::from_fn(|_| it.next().unwrap());
        out.entry(cfg).or_default().push(row);
    }
    out
}

fn map_of(c: &Config) -> TmemLoadMap {
    let acc = TmemAccum::new(c.m, c.n, c.cta_group, AccumType::F32).unwrap();
    acc.load_map(TmemLoad::parse(&c.load).unwrap()).unwrap()
}

#[test]
fn every_golden_tmem_row_matches_the_core() {
    let cfgs = configs();
    let rows = epilogue();
    assert_eq!(cfgs.len(), 30);
    assert_eq!(rows.values().map(Vec::len).sum::<usize>(), 249_856);
    let mut checked = 0;
    for c in &cfgs {
        let map = map_of(c);
        let gold = &rows[&c.cfg];
        assert_eq!(map.regs_per_thread(), c.regs_per_thread, "cfg {}", c.cfg);
        assert_eq!(map.accum.cols(), c.cols_used, "cfg {}", c.cfg);
        let mut ours = Vec::with_capacity(gold.len());
        for t in 0..128 {
            for r in 0..map.regs_per_thread() {
                let (lane, col) = map.reg_address_wrapping(t, r);
                let (m, n) = map.try_reg_element(t, r).unwrap();
                assert_eq!(map.accum.try_element(lane, col), Ok((m, n)));
                ours.push([t, r, m, n, lane, col]);
            }
        }
        let mut g = gold.clone();
        g.sort();
        ours.sort();
        assert_eq!(ours.len(), g.len(), "cfg {}", c.cfg);
        for (o, w) in ours.iter().zip(&g) {
            assert_eq!(
                o, w,
                "cfg {} ({}): ours vs CuTe [thread, reg, m, n, lane, col]",
                c.cfg, c.load
            );
        }
        // the inverse maps, element by element
        for w in gold {
            let [t, r, m, n, lane, col] = *w;
            assert_eq!(
                map.accum.try_address(m, n),
                Ok((lane, col)),
                "cfg {}",
                c.cfg
            );
            assert_eq!(map.try_element_reg(m, n), Ok((t, r)), "cfg {}", c.cfg);
            checked += 1;
        }
    }
    println!("{checked} golden-tmem rows match");
}

#[test]
fn a_32_lane_load_of_an_m64_cta_group_1_accumulator_is_refused() {
    // CuTe refuses these (no configuration in the golden files reads M = 64 with 32x32b).
    let acc = TmemAccum::new(64, 64, 1, AccumType::F32).unwrap();
    for num in [1, 4, 16, 64] {
        let load = TmemLoad::parse(&format!("32x32b.x{num}")).unwrap();
        assert_eq!(
            acc.load_map(load),
            Err(TmemError::LoadLanes {
                shape_lanes: 32,
                accum_lanes: 16
            })
        );
    }
    assert!(configs()
        .iter()
        .all(|c| !(c.m == 64 && c.load.starts_with("32x32b"))));
}

#[test]
fn golden_tmem_copy_matches_shared() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/golden-tmem");
    if !shared.is_dir() {
        println!("../shared/golden-tmem absent: nothing to compare");
        return;
    }
    let list = |d: &std::path::Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        list(&dir()),
        list(&shared),
        "copy the new golden-tmem files"
    );
    for name in list(&shared) {
        assert!(
            std::fs::read(shared.join(&name)).unwrap() == std::fs::read(dir().join(&name)).unwrap(),
            "tests/data/golden-tmem/{name} differs from ../shared/golden-tmem/{name}"
        );
    }
}

#[test]
fn unchecked_forms_never_panic() {
    // The kernel-facing unchecked functions take any u32 (meaningless results out of range,
    // never an overflow panic: this test profile has overflow checks on).
    let big = [
        0,
        1,
        31,
        127,
        128,
        4095,
        65535,
        u32::MAX / 2,
        u32::MAX - 1,
        u32::MAX,
    ];
    for c in &configs() {
        let map = map_of(c);
        for &a in &big {
            for &b in &big {
                let _ = map.reg_address_wrapping(a, b);
                let _ = map.reg_element_wrapping(a, b);
                let _ = map.element_reg_wrapping(a, b);
                let _ = map.load_offset(a, b);
                let _ = map.load.fragment(a, b);
                let _ = map.load.register_of(a, b);
                let _ = map.accum.address_wrapping(a, b);
                let _ = map.accum.element_wrapping(a, b);
                let _ = TmemAccum::taddr(a, b, b);
            }
        }
    }
}
