#![no_main]
// See gridbits_fuzz_checks::components::check_label for what is checked.
libfuzzer_sys::fuzz_target!(|data: &[u8]| gridbits_fuzz_checks::components::check_label(data));
