//! AFL++ target `policy`: [`schedlab_fuzz::policy_params`] on each input; a broken property is a crash.

fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Err(broken) = schedlab_fuzz::policy_params(data) {
            panic!("{broken}");
        }
    });
}
