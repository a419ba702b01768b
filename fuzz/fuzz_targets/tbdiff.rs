#![no_main]
libfuzzer_sys::fuzz_target!(init: mysl_fuzz_entry::tbdiff_prepare(), |data: &[u8]| mysl_fuzz_entry::fuzz_tbdiff(data));
