//! AFL++ target `spec`: [`schedlab_fuzz::spec`] on each input; a broken property is a crash.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Err(broken) = schedlab_fuzz::spec(data) {
            panic!("{broken}");
        }
    });
}
