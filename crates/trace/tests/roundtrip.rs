use crate::common::temp_file;
use proptest::prelude::*;
use schedlab_trace::TraceFormat;
use schedlab_trace::formats::gavel;
use schedlab_trace::synthetic::{Arrivals, GavelStyle, JobTemplate};
use schedlab_trace::workload::{FractionalGpus, Model, build};

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn generated_workloads_round_trip_through_gavel_traces(
        jobs in 1..200usize,
        rate in 0.1..100.0f64,
        multi_gpu in any::<bool>(),
        multi_priority in any::<bool>(),
        static_arrivals in any::<bool>(),
        seed in any::<u64>(),
        rates in prop::collection::vec(0.01..500.0f64, 4),
    ) {
        let templates = vec![
            JobTemplate { job_type: "ResNet-50 (batch size 64)".into(), scales: vec![(1, rates[0]), (2, rates[1]), (4, rates[2]), (8, rates[3])] },
            JobTemplate { job_type: "A3C".into(), scales: vec![(1, rates[3])] },
        ];
        let arrivals = if static_arrivals { Arrivals::AllAtZero } else { Arrivals::Poisson { rate_per_hour: rate } };
        let generated = GavelStyle { jobs, arrivals, multi_gpu, multi_priority, seed, templates }.generate().unwrap();
        let path = temp_file("roundtrip", &format!("w{seed}.trace"), &gavel::write(&generated));
        let trace = TraceFormat::Gavel.load(&path).unwrap();
        let (read_back, summary) = build(&trace, &Model::FromTrace, FractionalGpus::Error, &schedlab_trace::workload::JobTypes::default(), Default::default()).unwrap();
        prop_assert!(summary.dropped.is_empty());
        prop_assert_eq!(read_back.len(), generated.len());
        for (original, copy) in generated.iter().zip(&read_back) {
            prop_assert_eq!(original.id, copy.id);
            prop_assert_eq!(original.arrival, copy.arrival);
            prop_assert_eq!(original.gpus, copy.gpus);
            prop_assert_eq!(&original.job_type, &copy.job_type);
            prop_assert_eq!(original.work, copy.work);
            prop_assert_eq!(original.weight, copy.weight);
        }
    }
}
