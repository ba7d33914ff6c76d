//! Gavel's settings: every parameter read with its default, and the defaults of `mode=gavel`
//! (Gavel's simulator); the seeded shuffler of its agnostic types.

use super::*;

/// The random source of `type_order=shuffle`.
pub(super) enum TypeShuffler {
    /// ChaCha8 seeded with 0 (`shuffle_rng=chacha`, the default outside `mode=gavel`).
    ChaCha(Box<rand_chacha::ChaCha8Rng>),
    /// CPython's generator seeded as Gavel's simulator seeds its worker-type shuffler, with the
    /// spec's seed + 5 (`shuffle_rng=python`, the default with `mode=gavel`); set when the
    /// policy is built for a run.
    Python(Option<Box<PyRandom>>),
}

impl TypeShuffler {
    /// This round's order of the cluster's types (indices into `names`). The Python source
    /// shuffles Gavel's list: `v100`, `p100`, `k80` (those the cluster has, in that order),
    /// then any other types in the cluster's order, as `_schedule_jobs_on_workers` does with
    /// `random.shuffle`; ChaCha shuffles the cluster's order.
    pub(super) fn order(&mut self, names: &[String]) -> Vec<usize> {
        match self {
            TypeShuffler::ChaCha(rng) => {
                use rand::seq::SliceRandom;
                let mut order: Vec<usize> = (0..names.len()).collect();
                order.shuffle(rng.as_mut());
                order
            }
            TypeShuffler::Python(rng) => {
                let rng = rng.as_mut().expect("built for a run by Gavel::new");
                let position = |name: &str| names.iter().position(|known| known == name);
                let mut order: Vec<usize> = ["v100", "p100", "k80"].iter().filter_map(|name| position(name)).collect();
                order.extend((0..names.len()).filter(|index| !order.contains(index)).collect::<Vec<_>>());
                rng.shuffle(&mut order);
                order
            }
        }
    }
}

impl Gavel {
    /// Reads one of Gavel's policies from its parameters; `aware` false gives the agnostic twin
    /// (every usable throughput taken as 1). Parameters every kind takes: `throughputs` (path in
    /// the data directory, default `gavel/simulation_throughputs.json`), `round` (seconds, 360),
    /// `min_interval` (seconds between allocation recomputations, 0), `reset_credit` (seconds of
    /// run time every combination is credited with on every type at a recomputation, 0; Gavel
    /// credits half a round, 180), `tie_break` (`id`; `deficit` breaks equal priorities by
    /// Gavel's deficit, then the allocation, before job ids), and two of Gavel's quirks, off by
    /// default: `type_order` (e.g. `v100/p100/k80`: fill each round type by type in this order,
    /// or `shuffle` for a seeded random order each round, drawn by `shuffle_rng`: `chacha`, or
    /// `python`, CPython's generator seeded with the spec's seed + 5 as Gavel's simulator seeds
    /// its shuffler; `none` by default) and
    /// `idle_until_round` (`true`: start nothing between rounds). Every kind but FIFO takes
    /// `fill_unallocated` (`false`; `true`, as Gavel, lets jobs fill GPUs left over on types
    /// where their allocation is 0, at priority 0) and `new_jobs_wait` (`false`; `true`, as
    /// Gavel, selects a job that arrived since the allocation was computed in rounds, taking
    /// its GPUs, but starts it only after the next recomputation). Every kind takes
    /// `recompute_at_rounds` (`false`; `true`, as Gavel, recomputes a stale allocation only when
    /// a round starts), `short_rounds` (`false`; `true`, as Gavel, ends a round when its
    /// last job has run `floor(rate x round)` steps, or when every job in it has finished) and
    /// `whole_steps` (`false`; `true`, as Gavel, runs each job of a round `floor(rate x round)`
    /// steps and then idles it on its GPUs until the round ends).
    /// `mode=gavel` (default `schedlab`) makes
    /// every one of these defaults Gavel's simulator's: `type_order` `v100/p100/k80` for aware
    /// kinds and `shuffle` (with `shuffle_rng=python`) for agnostic ones, `idle_until_round=true`, `min_interval=1920`,
    /// `reset_credit` half a round, `tie_break=deficit`, `fill_unallocated=true`,
    /// `new_jobs_wait=true`, `recompute_at_rounds=true`, `short_rounds=true`, `whole_steps=true`, for Gandiva
    /// `pairing=blind`, and for the finish-time fairness LPs without space sharing
    /// `backend=maxmin-ipm` (an interior point, as Gavel's ECOS), which the aware max-min
    /// fairness LP takes in both modes; every other LP keeps microlp. LP kinds take `backend`
    /// (`microlp`, `highs`, `cbc`, `clarabel`, `maxmin-ipm`:
    /// the solver crate's structured interior point for the max-min fairness, makespan and
    /// finish-time fairness LPs, Clarabel for the others). Gandiva
    /// takes `pairing` (`gains`: only pairs whose co-located throughput gains; `blind`, as
    /// Gavel: any two jobs of the same scale factor). FIFO's agnostic twin takes `seed` (0) for
    /// its random choice of types;
    /// finish-time fairness takes `tolerance` (1e-4) and `max_iterations` (50); cost takes
    /// `costs`, dollars per GPU-hour per type as `type:price` pairs separated by `/` (default
    /// list prices `v100:2.48/p100:1.46/k80:0.45`); total throughput and cost, with or without
    /// space sharing, take `slo_factor` (0: none), which gives each job the deadline arrival +
    /// factor x its isolated duration (oracle knowledge).
    ///
    /// Reading does no I/O: the table is loaded by [`Gavel::new`].
    pub fn read(reader: &mut ParamReader<'_>, kind: GavelKind, aware: bool) -> Result<GavelConfig, ParamError> {
        use rand::SeedableRng;
        let mut objective = objectives::read(reader, kind, aware)?;
        let round = reader.positive_f64("round", 360.0)?;
        // `mode=gavel` sets every round-mechanism default as Gavel's simulator has it; explicit
        // parameters still override. Gavel fills V100s, then P100s, then K80s for its "Perf" and
        // "Packing" policies (our aware kinds) and shuffles the types for the others.
        let gavel_mode = reader.choice("mode", "schedlab", &["schedlab", "gavel"])? == "gavel";
        objective.read_mode_dependent(reader, gavel_mode)?;
        let (order_default, interval_default, credit_default, tie_default) = if gavel_mode {
            (if aware { "v100/p100/k80" } else { "shuffle" }, 1920.0, round / 2.0, "deficit")
        } else {
            ("none", 0.0, 0.0, "id")
        };
        let type_order_text = reader.choice_text("type_order", order_default)?;
        let shuffle_rng =
            reader.choice("shuffle_rng", if gavel_mode { "python" } else { "chacha" }, &["chacha", "python"])?;
        let type_shuffler = (type_order_text == "shuffle").then(|| match shuffle_rng {
            "python" => TypeShuffler::Python(None),
            _ => TypeShuffler::ChaCha(Box::new(rand_chacha::ChaCha8Rng::seed_from_u64(0))),
        });
        let type_order: Vec<String> = type_order_text
            .split('/')
            .map(str::trim)
            .filter(|name| !name.is_empty() && *name != "none" && *name != "shuffle")
            .map(String::from)
            .collect();
        let idle_until_round = reader.bool("idle_until_round", gavel_mode)?;
        let min_interval = reader.f64("min_interval", interval_default)?;
        let reset_credit = reader.f64("reset_credit", credit_default)?;
        let deficit_ties = reader.choice("tie_break", tie_default, &["id", "deficit"])? == "deficit";
        // Gavel's FIFO never schedules a job at priority 0, so FIFO takes no `fill_unallocated`.
        let fill_unallocated = objective.fills_unallocated() && reader.bool("fill_unallocated", gavel_mode)?;
        // Only jobs that fill unallocated GPUs are ranked before the next recomputation.
        let new_jobs_wait = fill_unallocated && reader.bool("new_jobs_wait", gavel_mode)?;
        let recompute_at_rounds = reader.bool("recompute_at_rounds", gavel_mode)?;
        let short_rounds = reader.bool("short_rounds", gavel_mode)?;
        let whole_steps = reader.bool("whole_steps", gavel_mode)?;
        let backend: Backend = if !objective.solves_lps() {
            Backend::default()
        } else {
            let interior = kind.default_backend(aware, gavel_mode) == Backend::MaxMinIpm;
            reader
                .choice(
                    "backend",
                    if interior { "maxmin-ipm" } else { "microlp" },
                    &["microlp", "highs", "cbc", "clarabel", "maxmin-ipm"],
                )?
                .parse()
                .expect("listed choices parse")
        };
        let throughputs = reader.file("throughputs", "gavel/simulation_throughputs.json")?;
        let name = reader.name();
        if !backend.is_available() {
            return Err(ParamError {
                policy: name,
                message: format!(
                    "parameter 'backend': this build has no {backend} backend; rebuild with `--features {}`",
                    backend.feature().unwrap_or_default()
                ),
            });
        }
        Ok(GavelConfig(Gavel {
            name,
            objective,
            aware,
            clock: RoundClock::new(round, idle_until_round),
            min_interval,
            reset_credit,
            deficit_ties,
            fill_unallocated,
            new_jobs_wait,
            recompute_at_rounds,
            short_rounds,
            whole_steps,
            type_order,
            type_shuffler,
            backend,
            throughputs,
            table: Arc::new(ThroughputTable::default()),
            placer: Placer::default(),
            accounts: BTreeMap::new(),
            pair_cache: HashMap::new(),
            rows: HashMap::new(),
            rank_lists: Vec::new(),
            rank_floors: Vec::new(),
            given: Vec::new(),
            computed_at: None,
            stale: true,
            last_call: None,
            busy_until: BTreeMap::new(),
            solver: SolverStats::default(),
        }))
    }
}
