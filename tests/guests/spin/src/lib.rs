//! Hostile test verb: `parse` never returns. The host's fuel budget must stop it.
wit_bindgen::generate!({ path: "../../../wit", world: "verb" });

struct Spin;

impl Guest for Spin {
    fn info() -> VerbInfo {
        VerbInfo {
            name: "spin".into(),
            tool: "version".into(),
            summary: "Loop forever (test guest)".into(),
            usage: "usage: mur devtools spin".into(),
        }
    }

    fn parse(_argv: Vec<String>) -> Result<Parsed, String> {
        let mut n: u64 = 0;
        // `black_box` keeps the optimiser from proving the loop useless.
        loop {
            n = std::hint::black_box(n.wrapping_add(1));
        }
    }

    fn shape(_argv: Vec<String>, _result: String, _options: OutputOptions) -> Result<Shaped, String> {
        Err("unreachable".into())
    }
}

export!(Spin);
