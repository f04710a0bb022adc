//! Node tooling shared by the conformance and interop e2e tests: the npm packages pinned in
//! `tests/conformance/package.json` (installed with `npm ci` when missing or out of date), the
//! local Node 22 that runs them, and a guard that kills a Node process the test started.
//!
//! Included by path (`#[path = "../../conformance/node.rs"] mod node;`) in `tests/tests/e2e/main.rs`.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

/// The npm package the tests' Node tools are pinned in.
pub fn package_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance")
}

/// Paths of the installed tools.
pub struct Tools {
    /// Node 22 from the `node` npm package (the machine's own Node may be older).
    pub node: PathBuf,
    /// Entry point of the `@modelcontextprotocol/conformance` CLI.
    pub conformance_cli: PathBuf,
    /// Entry point of `@modelcontextprotocol/server-everything`.
    pub everything_server: PathBuf,
}

/// Installs the pinned packages if needed (once per test process, serialized
/// across processes by a file lock) and returns where they are.
pub fn tools() -> &'static Tools {
    static TOOLS: OnceLock<Tools> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let dir = package_dir();
        let lock =
            File::create(dir.join(".npm-install.lock")).expect("create the npm install lock file");
        lock.lock().expect("take the npm install lock");
        if let Some(stale) = out_of_date(&dir) {
            eprintln!("{stale}; running `npm ci --prefix {}`", dir.display());
            npm_ci(&dir);
            if let Some(still) = out_of_date(&dir) {
                panic!("`npm ci` finished but {still}");
            }
        }
        let modules = dir.join("node_modules");
        Tools {
            node: modules.join("node/bin/node"),
            conformance_cli: modules.join("@modelcontextprotocol/conformance/dist/index.js"),
            everything_server: modules
                .join("@modelcontextprotocol/server-everything/dist/index.js"),
        }
    })
}

/// Why `node_modules` does not match `package.json`, if it does not: a pinned
/// package missing, or installed at another version than the pin.
fn out_of_date(dir: &Path) -> Option<String> {
    let manifest = read_json(&dir.join("package.json"))
        .expect("tests/conformance/package.json is readable JSON");
    let Some(Value::Object(pins)) = manifest.get("devDependencies") else {
        panic!("tests/conformance/package.json has no devDependencies");
    };
    for (name, pinned) in pins {
        let installed = read_json(&dir.join("node_modules").join(name).join("package.json"));
        match installed
            .as_ref()
            .and_then(|package| package.get("version"))
        {
            None => return Some(format!("npm package `{name}` is not installed")),
            Some(version) if version != pinned => {
                return Some(format!(
                    "npm package `{name}` is at {version}, pinned at {pinned}"
                ));
            }
            Some(_) => {}
        }
    }
    let node = dir.join("node_modules/node/bin/node");
    (!node.is_file()).then(|| {
        format!(
            "`{}` is missing (the `node` package's install script did not run)",
            node.display()
        )
    })
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// `npm ci` with the machine's npm, from the committed `package-lock.json`.
fn npm_ci(dir: &Path) {
    let output = Command::new("npm")
        .arg("ci")
        .arg("--prefix")
        .arg(dir)
        .args(["--no-audit", "--no-fund"])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|error| {
            panic!("cannot run `npm` ({error}); the e2e tests need npm to install their Node tools")
        });
    assert!(
        output.status.success(),
        "`npm ci --prefix {}` failed ({}):\n{}\n{}",
        dir.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
}
