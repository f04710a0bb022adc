//! A file's digest as it is written down: a task's, a condition's, the verbs' and the
//! compiled verbs' keys, each its sha256 in lowercase hex.

/// `bytes`' sha256, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    hex(&sha2::Sha256::digest(bytes))
}

/// `bytes` in lowercase hex, two digits a byte (a digest as it is written down).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sha256_is_written_in_lowercase_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hex(&[0, 0x0f, 0xa0, 0xff]), "000fa0ff");
    }
}
