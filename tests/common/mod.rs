//! Helpers shared by integration tests (a folder, not a test target of its own).

use tsfile_bloom::verdict::Reason;

/// A reason's kind as a number, for the tests that check every kind is met.
pub fn reason_kind(r: &Reason) -> u8 {
    match r {
        Reason::NoFilter => 0,
        Reason::AllSet { .. } => 1,
        Reason::AuditReproducedNothing => 2,
        Reason::AllSetUnderOther { .. } => 3,
        Reason::CharsetNotEstablished => 4,
        Reason::ClearConfirmed { .. } => 5,
        Reason::ClearAsciiTail => 6,
        Reason::ClearUnderEvery { .. } => 7,
        Reason::CheapHash => 8,
    }
}
