#![no_main]
// See gridbits_fuzz_checks::amazons::check_amazons for what is checked.
libfuzzer_sys::fuzz_target!(|data: &[u8]| gridbits_fuzz_checks::amazons::check_amazons(data));
