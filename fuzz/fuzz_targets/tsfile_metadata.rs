//! Arbitrary bytes as a whole TsFile: the envelope and TsFileMetadata parse or fail
//! with a typed error whose offset lies inside the file.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tsfile_bloom::tsfile;

fuzz_target!(|data: &[u8]| {
    match tsfile::read_metadata(data) {
        Ok(meta) => {
            assert!(meta.meta_offset < meta.envelope.metadata_offset);
            assert!(meta.envelope.metadata_offset + meta.envelope.metadata_size as u64 + 10 == data.len() as u64);
        }
        Err(e) => assert!(e.offset().is_some_and(|o| o <= data.len() as u64), "{e}"),
    }
});
