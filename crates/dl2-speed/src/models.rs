//! The eight models of DL2's simulator and their constants (`trace.py`, `Trace.__init__`).

/// One model's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelInfo {
    /// The model's name, as `config_speed.txt` spells it.
    pub name: &'static str,
    /// DL2's job type number (1-based position in `trace.py`'s `models`), the state's first row.
    pub type_number: u32,
    /// Mini-batches per epoch (`epoch_sizes`): epochs per second = speed / this.
    pub epoch_size: f64,
    /// Epochs to completion under the "Normal" length pattern, as a fraction of
    /// `MAX_NUM_EPOCHS` (`num_epochs`; with `FIX_JOB_LEN` every job of a model has this length).
    pub epochs_fraction: f64,
    /// Whether the authors' workers use no GPU (`resr_workers` of `[2, 0]`).
    pub cpu_only_workers: bool,
}

/// The models in `trace.py`'s order (`models`, `epoch_sizes`, `num_epochs`, `resr_workers`).
pub const MODELS: [ModelInfo; 8] = [
    ModelInfo { name: "resnet-50", type_number: 1, epoch_size: 115.0, epochs_fraction: 0.3, cpu_only_workers: false },
    ModelInfo { name: "vgg-16", type_number: 2, epoch_size: 115.0, epochs_fraction: 0.96, cpu_only_workers: false },
    ModelInfo {
        name: "resnext-110",
        type_number: 3,
        epoch_size: 390.0,
        epochs_fraction: 0.05,
        cpu_only_workers: false,
    },
    ModelInfo {
        name: "inception-bn",
        type_number: 4,
        epoch_size: 120.0,
        epochs_fraction: 0.54,
        cpu_only_workers: false,
    },
    ModelInfo { name: "seq2seq", type_number: 5, epoch_size: 780.0, epochs_fraction: 0.95, cpu_only_workers: false },
    ModelInfo {
        name: "cnn-text-classification",
        type_number: 6,
        epoch_size: 193.0,
        epochs_fraction: 0.46,
        cpu_only_workers: true,
    },
    ModelInfo { name: "dssm", type_number: 7, epoch_size: 349.0, epochs_fraction: 0.33, cpu_only_workers: true },
    ModelInfo { name: "wlm", type_number: 8, epoch_size: 165.0, epochs_fraction: 0.23, cpu_only_workers: false },
];

/// Returns the constants of the model named `name`.
pub fn model_info(name: &str) -> Option<&'static ModelInfo> {
    MODELS.iter().find(|model| model.name == name)
}
