#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| mysl_fuzz_entry::fuzz_shakmaty(data));
