//! AFL++ target `trace`: [`schedlab_fuzz::trace_file`] on each input; a broken property is a crash.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Err(broken) = schedlab_fuzz::trace_file(data) {
            panic!("{broken}");
        }
    });
}
