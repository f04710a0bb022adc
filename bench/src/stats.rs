//! Summaries of repeated measurements, and the table they are printed in.

use std::time::Duration;

use crate::runs::{Run, Runs};

/// One table row: a name, its durations and, for processes, peak memory.
#[derive(Debug, Clone)]
pub struct Row {
    pub name: String,
    pub samples: Vec<Duration>,
    pub peak_rss_kib: Option<u64>,
    /// Free text for the last column: ratios, throughput, notes.
    pub note: String,
}

impl Row {
    /// A row of timed runs; its memory comes from [`Row::peak_from`].
    pub fn from_runs(name: impl Into<String>, runs: &[Run]) -> Self {
        Self::from_durations(name, runs.iter().map(|run| run.elapsed).collect())
    }

    /// A row of one command's timed runs, its peak RSS from its memory runs.
    pub fn from_measured(name: impl Into<String>, runs: &Runs) -> Self {
        Self::from_runs(name, &runs.timed).peak_from(&runs.memory)
    }

    /// The largest peak the memory runs of the same command saw
    /// ([`crate::measure::run_for_memory`]), as the row's peak RSS.
    pub fn peak_from(mut self, memory_runs: &[Run]) -> Self {
        self.peak_rss_kib = memory_runs.iter().filter_map(|run| run.peak_rss_kib).max();
        self
    }

    pub fn from_durations(name: impl Into<String>, samples: Vec<Duration>) -> Self {
        Self {
            name: name.into(),
            samples,
            peak_rss_kib: None,
            note: String::new(),
        }
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = note.into();
        self
    }

    pub fn median(&self) -> Duration {
        percentile(&self.samples, 50.0)
    }
}

/// The `p`th percentile by nearest rank (0 for no samples).
pub fn percentile(samples: &[Duration], p: f64) -> Duration {
    if samples.is_empty() {
        return Duration::ZERO;
    }
    let mut sorted = samples.to_vec();
    sorted.sort();
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Milliseconds with enough precision for loopback calls.
pub fn ms(duration: Duration) -> String {
    format!("{:.2}", duration.as_secs_f64() * 1000.0)
}

/// Rows as an aligned text table under a `##` title, each line ended.
pub fn table(title: &str, rows: &[Row]) -> String {
    let mut text = format!("\n## {title}\n\n");
    let header = [
        "measurement",
        "n",
        "median ms",
        "p90 ms",
        "min ms",
        "max ms",
        "peak RSS",
        "notes",
    ];
    let cells: Vec<[String; 8]> = rows.iter().map(cells_of).collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|col| {
            cells
                .iter()
                .map(|row| row[col].len())
                .chain([header[col].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |values: &[&str]| {
        let padded: Vec<String> = values
            .iter()
            .zip(&widths)
            .map(|(v, w)| format!("{v:<w$}"))
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    text.push_str(&line(&header));
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    text.push_str(&format!("|-{}-|\n", rule.join("-|-")));
    for row in &cells {
        text.push_str(&line(&row.iter().map(String::as_str).collect::<Vec<_>>()));
    }
    text
}

fn cells_of(row: &Row) -> [String; 8] {
    let samples = &row.samples;
    let (min, max) = (samples.iter().min().copied(), samples.iter().max().copied());
    [
        row.name.clone(),
        samples.len().to_string(),
        ms(row.median()),
        ms(percentile(samples, 90.0)),
        min.map(ms).unwrap_or_default(),
        max.map(ms).unwrap_or_default(),
        row.peak_rss_kib
            .map(|kib| format!("{:.1} MiB", kib as f64 / 1024.0))
            .unwrap_or_else(|| "-".into()),
        row.note.clone(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let samples: Vec<Duration> = (1..=10).map(Duration::from_millis).collect();
        assert_eq!(percentile(&samples, 50.0), Duration::from_millis(5));
        assert_eq!(percentile(&samples, 90.0), Duration::from_millis(9));
        assert_eq!(percentile(&samples, 100.0), Duration::from_millis(10));
        assert_eq!(percentile(&[], 50.0), Duration::ZERO);
    }

    #[test]
    fn a_table_is_aligned_markdown_under_its_title() {
        let rows = [Row {
            name: "mur devtools state".into(),
            samples: [2, 3, 4].map(Duration::from_millis).to_vec(),
            peak_rss_kib: Some(2765),
            note: "0.95x".into(),
        }];
        let expected = "
## latency

| measurement        | n | median ms | p90 ms | min ms | max ms | peak RSS | notes |
|--------------------|---|-----------|--------|--------|--------|----------|-------|
| mur devtools state | 3 | 3.00      | 4.00   | 2.00   | 4.00   | 2.7 MiB  | 0.95x |
";
        assert_eq!(table("latency", &rows), expected);
    }
}
