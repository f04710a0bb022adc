//! Hostile test verb: `parse` allocates until memory runs out. The host's memory
//! limit must stop it.
wit_bindgen::generate!({ path: "../../../wit", world: "verb" });

struct Hog;

impl Guest for Hog {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "hog".into(),
            tool: "version".into(),
            summary: "Allocate without bound (test guest)".into(),
            usage: "usage: mur devtools hog".into(),
        }
    }

    fn parse(_argv: Vec<String>) -> Result<Parsed, String> {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            // Touch every page so the allocation is real, not just reserved.
            hoard.push(std::hint::black_box(vec![1u8; 1 << 20]));
        }
    }

    fn shape(_argv: Vec<String>, _result: String, _options: OutputOptions) -> Result<Shaped, String> {
        Err("unreachable".into())
    }
}

export!(Hog);
