//! The policies of this crate, as the zoo lists them.

use crate::network::Agent;
use crate::observation::PoolRules;
use crate::policy::{Chooser, Order, RlTune};
use schedlab_core::weights::{self, Weights};
use schedlab_core::{ParamError, ParamReader, PolicyEntry, PolicyEnv, ready, recipe};
use std::sync::Arc;

/// Weights shipped with schedlab (`weights/*.json`, each with its training manifest beside it):
/// `philly` and `helios` trained on bounded slowdown by the authors' procedure (each
/// environment's default), and one agent per objective of the authors' `--score_type`
/// (`TRACE-bsld`, `-wait`, `-turnaround`, `-utilization`) trained with schedlab's recipe (README).
pub const BUILTIN_WEIGHTS: &[(&str, &str)] = &[
    ("philly", include_str!("../weights/philly.json")),
    ("helios", include_str!("../weights/helios.json")),
    ("philly-bsld", include_str!("../weights/philly-bsld.json")),
    ("philly-wait", include_str!("../weights/philly-wait.json")),
    ("philly-turnaround", include_str!("../weights/philly-turnaround.json")),
    ("philly-utilization", include_str!("../weights/philly-utilization.json")),
    ("helios-bsld", include_str!("../weights/helios-bsld.json")),
    ("helios-wait", include_str!("../weights/helios-wait.json")),
    ("helios-turnaround", include_str!("../weights/helios-turnaround.json")),
    ("helios-utilization", include_str!("../weights/helios-utilization.json")),
];

/// The first 8 hex digits of the SHA-256 of a weights file's text: built-in weights are named
/// `philly@<digest>` in policy names, so that new weights make new run identities.
pub use schedlab_core::weights::digest;

/// What `rltune[...]` reads before its weights are loaded.
struct AgentRecipe {
    name: String,
    weights: Weights,
    sample: bool,
    rules: PoolRules,
}

fn read_agent(reader: &mut ParamReader<'_>) -> Result<AgentRecipe, ParamError> {
    let env = RlTune::read_env(reader)?;
    // Each environment's built-in weights are its default; env=alibaba has none (its workload
    // is not in the data; see the README).
    let no_builtin = !BUILTIN_WEIGHTS.iter().any(|(name, _)| *name == env);
    let hint = if no_builtin {
        format!(" (env={env} has no built-in weights; give weights=FILE.json)")
    } else {
        String::new()
    };
    let weights = weights::read_weights(reader, BUILTIN_WEIGHTS, env, &hint)?;
    let sample = reader.choice("action", "sample", &["sample", "greedy"])? == "sample";
    let rules = RlTune::read_rules_in(reader, env)?;
    Ok(AgentRecipe { name: reader.name(), weights, sample, rules })
}

fn build_agent(recipe: AgentRecipe, env: &PolicyEnv) -> Result<RlTune, ParamError> {
    let error = |message: String| ParamError { policy: recipe.name.clone(), message };
    let agent = weights::load_weights(env, &recipe.weights, BUILTIN_WEIGHTS, Agent::from_json).map_err(error)?;
    let chooser = Chooser::Agent { agent: Arc::clone(&agent), sample: recipe.sample };
    Ok(RlTune::new(recipe.name, chooser, recipe.rules, false))
}

fn read_order(order: Order) -> impl Fn(&mut ParamReader<'_>) -> Result<RlTune, ParamError> {
    move |reader| {
        let rules = RlTune::read_rules(reader)?;
        let wait_as_code =
            if matches!(order, Order::Wfp | Order::Uni) { reader.bool("wait_as_code", false)? } else { false };
        Ok(RlTune::new(reader.name(), Chooser::Order(order), rules, wait_as_code))
    }
}

/// The environment rules (`small_node_limit`, `fragmentation`, `tier2_feature`, `placement`,
/// ...) of an `rltune-fcfs[...]` name, as a spec for the trainer gives them: the trainer
/// trains in the environment its baseline runs in.
pub fn rules_of(policy: &schedlab_core::PolicyParams) -> Result<PoolRules, ParamError> {
    if policy.name != "rltune-fcfs" {
        return Err(ParamError {
            policy: policy.to_string(),
            message: "the trainer's baseline must be rltune-fcfs (with the environment's parameters)".into(),
        });
    }
    let mut reader = policy.reader();
    let rules = RlTune::read_rules(&mut reader)?;
    reader.finish()?;
    Ok(rules)
}

/// The RLTune agent and its baselines.
pub const POLICIES: &[PolicyEntry] = &[
    PolicyEntry {
        name: "rltune",
        description: "RLTune: a PPO-trained kernel network picks the next job from the first 128 waiting; tiered consolidated placement; no backfill",
        oracle: false,
        make: |params, env| recipe(params, env, read_agent, build_agent),
    },
    PolicyEntry {
        name: "rltune-fcfs",
        description: "RLTune's environment with first-come first-served order (its training baseline); no backfill",
        oracle: false,
        make: |params, env| recipe(params, env, read_order(Order::Fcfs), ready),
    },
    PolicyEntry {
        name: "rltune-sjf",
        description: "RLTune's environment, shortest true run time first (ORACLE); no backfill",
        oracle: true,
        make: |params, env| recipe(params, env, read_order(Order::Sjf), ready),
    },
    PolicyEntry {
        name: "rltune-f1",
        description: "RLTune's environment, F1 order log10(r)*n + 870*log10(s) with true run times (ORACLE); no backfill",
        oracle: true,
        make: |params, env| recipe(params, env, read_order(Order::F1), ready),
    },
    PolicyEntry {
        name: "rltune-wfp",
        description: "RLTune's environment, WFP order -(wait/r)^3*n with true run times (ORACLE); no backfill",
        oracle: true,
        make: |params, env| recipe(params, env, read_order(Order::Wfp), ready),
    },
    PolicyEntry {
        name: "rltune-uni",
        description: "RLTune's environment, UNI order -wait/(log2(n)*r) with true run times (ORACLE); no backfill",
        oracle: true,
        make: |params, env| recipe(params, env, read_order(Order::Uni), ready),
    },
];

#[cfg(test)]
mod tests {
    use super::POLICIES;
    use schedlab_core::PolicyParams;

    fn describe(text: &str) -> Result<schedlab_core::ParamSummary, schedlab_core::ParamError> {
        let params: PolicyParams = text.parse().unwrap();
        POLICIES.iter().find(|entry| entry.name == params.name).unwrap().describe(&params)
    }

    #[test]
    fn each_environment_defaults_to_its_own_weights_and_alibaba_has_none() {
        assert!(describe("rltune").is_ok());
        assert!(describe("rltune[env=helios]").is_ok());
        assert!(describe("rltune-fcfs[env=alibaba]").is_ok());
        let message = describe("rltune[env=alibaba]").unwrap_err().to_string();
        assert!(message.contains("(env=alibaba has no built-in weights; give weights=FILE.json)"), "{message}");
        let message = describe("rltune[env=helios,weights=nope]").unwrap_err().to_string();
        assert!(
            message.ends_with("expected a built-in name (philly, helios, philly-bsld, philly-wait, philly-turnaround, philly-utilization, helios-bsld, helios-wait, helios-turnaround, helios-utilization) or a .json file, got 'nope'"),
            "{message}"
        );
    }
}
