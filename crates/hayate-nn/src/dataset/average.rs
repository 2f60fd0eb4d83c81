//! Duplicate averaging (dlshogi's `use_average`): samples of the same position are merged into
//! one whose policy, value and result are the means over the duplicates.

use super::sample::Sample;
use hayate_records::Hcp;
use std::collections::HashMap;

/// Merges samples with equal packed positions, keeping first-seen order. The merged policy is
/// the mean of the distributions (labels summed, divided by the count), the value and result
/// are means, and the ply is the first sample's.
pub fn average_duplicates(samples: impl IntoIterator<Item = Sample>) -> Vec<Sample> {
    let mut index: HashMap<Hcp, usize> = HashMap::new();
    let mut out: Vec<Sample> = Vec::new();
    let mut counts: Vec<u32> = Vec::new();
    for s in samples {
        match index.get(&s.hcp) {
            Some(&i) => {
                let acc = &mut out[i];
                for (label, p) in s.policy {
                    match acc.policy.iter_mut().find(|q| q.0 == label) {
                        Some(q) => q.1 += p,
                        None => acc.policy.push((label, p)),
                    }
                }
                acc.value += s.value;
                acc.result += s.result;
                counts[i] += 1;
            }
            None => {
                index.insert(s.hcp, out.len());
                out.push(s);
                counts.push(1);
            }
        }
    }
    for (s, &n) in out.iter_mut().zip(counts.iter()) {
        if n > 1 {
            let inv = 1.0 / n as f32;
            for p in s.policy.iter_mut() {
                p.1 *= inv;
            }
            s.value *= inv;
            s.result *= inv;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(b: u8, policy: Vec<(u16, f32)>, value: f32, result: f32) -> Sample {
        Sample {
            hcp: Hcp([b; 32]),
            ply: 0,
            policy,
            value,
            result,
            novice: None,
        }
    }

    #[test]
    fn merges_equal_positions() {
        let out = average_duplicates(vec![
            sample(1, vec![(5, 1.0)], 0.6, 1.0),
            sample(2, vec![(7, 1.0)], 0.5, 0.5),
            sample(1, vec![(5, 0.5), (9, 0.5)], 0.4, 0.0),
        ]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].policy, vec![(5, 0.75), (9, 0.25)]);
        assert!((out[0].value - 0.5).abs() < 1e-6);
        assert_eq!(out[0].result, 0.5);
        assert_eq!(out[1], sample(2, vec![(7, 1.0)], 0.5, 0.5));
    }
}
