//! lockfile contract
