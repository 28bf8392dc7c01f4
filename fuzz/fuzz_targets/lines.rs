#![no_main]
// See gridbits_fuzz_checks::lines::check_lines for what is checked.
libfuzzer_sys::fuzz_target!(|data: &[u8]| gridbits_fuzz_checks::lines::check_lines(data));
