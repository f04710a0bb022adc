//! The sample app's tests, one module per area, in one test binary: its tools driven in
//! process exactly as the server would call them (through [`app::App`]), and the real
//! `mur-sample` binary as a session (`process`, and `offer` for progress, questions,
//! mixed content, resources and the prompt over real HTTP).

mod actions;
mod app;
mod inspect;
mod offer;
mod process;
mod screenshot;
mod wait;
