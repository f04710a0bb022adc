//! The server library's integration tests, one module per area, in one test binary: real
//! session processes (the `minimal_session` example, and `mur-sample` for the hostile-HTTP
//! checks) over real loopback TCP, each test in its own test-kit sandbox.

mod guide;
mod http_endpoint;
mod http_hostile;
mod lockfile_lifecycle;
mod mcp_calls;
mod mcp_features;
mod mcp_tasks;
mod stdio_session;
mod support;
mod usage_records;
