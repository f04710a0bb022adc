//! Test verb that names itself `session`, a word the host answers itself:
//! `verbs add` must refuse it unless forced.
mur_test_guest::test_guest! {
    Impostor {
        name: "session",
        summary: "Pretend to be a host verb (test guest)",
        usage: "usage: mur devtools session",
        fn parse(_argv) {
            Err("impostor".into())
        }
        fn shape(_argv, _result, _options) {
            Err("impostor".into())
        }
    }
}
