//! Measured kernel times: where the adapter has timestamp queries, every
//! launch is bracketed by two timestamps, resolved at the batch's submission
//! and read back with it, so the Report can put what this machine's GPU took
//! beside what the simulated TPU would take (`tpu_runtime::Measured`).
//!
//! Natively (where the adapter allows timestamps inside a pass) the two are
//! written around the dispatch in the batch's one compute pass; in a
//! browser, where WebGPU writes timestamps only at a pass's beginning and end,
//! a measured launch gets a compute pass of its own. The readback is mapped
//! when the queue has run it (natively at the next poll; in a browser from
//! the event loop), and nothing waits for it: a launch whose times have not
//! arrived when the Report is made is reported unmeasured.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use tpu_runtime::Measured;

/// Timestamps per query set: two per launch. WebGPU allows 4,096.
const QUERIES: u32 = 4096;

/// Measured launches kept for the runtime to claim; past this many the
/// oldest unclaimed are dropped (a run claims its own when it reports).
const KEPT: usize = 1 << 16;

/// How a launch is bracketed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Bracket {
    /// `write_timestamp` around the dispatch, inside the open pass.
    InsidePass,
    /// A pass of its own whose beginning and end are timestamped.
    OwnPass,
}

/// One submission's timestamps on their way back.
struct InFlight {
    buffer: wgpu::Buffer,
    launches: Vec<u64>,
    /// Whether its mapping was asked for (once: a second request fails).
    asked: bool,
    /// `WAITING`, then `MAPPED` or `FAILED` (from the map callback).
    state: Arc<AtomicU8>,
}

const WAITING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;

pub(crate) struct Timing {
    pub bracket: Bracket,
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    /// Nanoseconds per timestamp tick.
    period: f64,
    /// The launches bracketed in the open batch, in query order.
    pending: Vec<u64>,
    in_flight: Vec<InFlight>,
    measured: HashMap<u64, Measured>,
}

impl Timing {
    /// Timing for `device`, if it was given the timestamp features.
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Timing> {
        let features = device.features();
        if !features.contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let bracket = if features.contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES) {
            Bracket::InsidePass
        } else {
            Bracket::OwnPass
        };
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("kernel timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: QUERIES,
        });
        let resolve = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps resolved"),
            size: u64::from(QUERIES) * 8,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        Some(Timing {
            bracket,
            queries,
            resolve,
            period: f64::from(queue.get_timestamp_period()),
            pending: Vec::new(),
            in_flight: Vec::new(),
            measured: HashMap::new(),
        })
    }

    /// Whether the query set has room for another launch in this batch.
    pub(crate) fn has_room(&self) -> bool {
        (self.pending.len() as u32 + 1) * 2 <= QUERIES
    }

    /// The query indices bracketing `launch` (the next two).
    pub(crate) fn bracket_next(&mut self, launch: u64) -> (u32, u32) {
        let first = self.pending.len() as u32 * 2;
        self.pending.push(launch);
        (first, first + 1)
    }

    pub(crate) fn queries(&self) -> &wgpu::QuerySet {
        &self.queries
    }

    /// The timestamp writes of a pass of its own for `launch`.
    pub(crate) fn pass_writes(&mut self, launch: u64) -> wgpu::ComputePassTimestampWrites<'_> {
        let (begin, end) = self.bracket_next(launch);
        wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(begin),
            end_of_pass_write_index: Some(end),
        }
    }

    /// Records the resolution of this batch's timestamps and their copy to a
    /// readback buffer, at the end of the batch's encoder (outside any pass).
    pub(crate) fn resolve(&mut self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder) {
        if self.pending.is_empty() {
            return;
        }
        let count = self.pending.len() as u32 * 2;
        let bytes = u64::from(count) * 8;
        encoder.resolve_query_set(&self.queries, 0..count, &self.resolve, 0);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encoder.copy_buffer_to_buffer(&self.resolve, 0, &buffer, 0, bytes);
        self.in_flight.push(InFlight {
            buffer,
            launches: std::mem::take(&mut self.pending),
            asked: false,
            state: Arc::new(AtomicU8::new(WAITING)),
        });
    }

    /// After a submission: asks for the readback it carries, if any, to be
    /// mapped once the queue has run it.
    pub(crate) fn submitted(&mut self) {
        for f in self.in_flight.iter_mut().filter(|f| !f.asked) {
            f.asked = true;
            let state = f.state.clone();
            f.buffer
                .slice(..)
                .map_async(wgpu::MapMode::Read, move |result| {
                    let done = if result.is_ok() { MAPPED } else { FAILED };
                    state.store(done, Ordering::Release);
                });
        }
    }

    /// Takes in the readbacks that have arrived.
    fn collect(&mut self) {
        let (ready, waiting): (Vec<InFlight>, Vec<InFlight>) = std::mem::take(&mut self.in_flight)
            .into_iter()
            .partition(|f| f.state.load(Ordering::Acquire) != WAITING);
        self.in_flight = waiting;
        // A readback that failed to map is dropped: its launches stay unmeasured.
        for f in ready
            .into_iter()
            .filter(|f| f.state.load(Ordering::Acquire) == MAPPED)
        {
            if let Ok(view) = f.buffer.slice(..).get_mapped_range() {
                let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&view);
                for (launch, pair) in f.launches.iter().zip(ticks.as_chunks::<2>().0) {
                    // A reversed pair (some drivers' clocks) is no measurement.
                    let Some(ticks) = pair[1].checked_sub(pair[0]) else {
                        continue;
                    };
                    let m = self.measured.entry(*launch).or_insert(Measured {
                        start_ns: pair[0] as f64 * self.period,
                        duration_ns: 0.0,
                    });
                    // A launch of several dispatches (a scatter's phases) adds up.
                    m.duration_ns += ticks as f64 * self.period;
                }
            }
            f.buffer.unmap();
        }
        if self.measured.len() > KEPT {
            self.measured.clear();
        }
    }

    /// What `launch` took on this machine, if its timestamps have arrived.
    pub(crate) fn claim(&mut self, launch: u64) -> Option<Measured> {
        self.collect();
        self.measured.remove(&launch)
    }

    /// Whether readbacks are on their way.
    pub(crate) fn waiting(&self) -> bool {
        !self.in_flight.is_empty()
    }

    /// Whether `launch` is in the batch not yet submitted.
    pub(crate) fn is_pending(&self, launch: u64) -> bool {
        self.pending.contains(&launch)
    }
}
