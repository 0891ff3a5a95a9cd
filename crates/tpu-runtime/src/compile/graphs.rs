//! A capture cut into graphs at its breaks: each graph's nodes, parameters
//! and results, kept for replay and, on a compile's first call, recorded.

use super::{Capture, Event, Graph, GraphBreak, Node, Typed};
use std::collections::{HashMap, HashSet};

impl crate::Runtime {
    /// Cuts the capture's events into graphs at its breaks (a break with no
    /// op before it makes no graph, as in Dynamo), keeps each graph for
    /// replay and its inputs for the caller, and on a compile's first call
    /// lowers each and records them under the compile.
    pub(super) fn record_graphs(&mut self, mut capture: Capture, results: Vec<Typed>) {
        let mut graphs: Vec<(Vec<Node>, Vec<Typed>)> = vec![(Vec::new(), Vec::new())];
        let mut breaks = Vec::new();
        for event in std::mem::take(&mut capture.events) {
            match event {
                Event::Op(node) => graphs.last_mut().unwrap().0.push(node),
                Event::Break {
                    reason,
                    line,
                    value,
                } => {
                    let last = graphs.last_mut().unwrap();
                    if last.0.is_empty() {
                        continue;
                    }
                    last.1.extend(value);
                    breaks.push(GraphBreak { reason, line });
                    graphs.push((Vec::new(), Vec::new()));
                }
            }
        }
        graphs.last_mut().unwrap().1.extend(results);
        // A value a later graph reads is a result of the graph that made it.
        let made_by: HashMap<u64, usize> = graphs
            .iter()
            .enumerate()
            .flat_map(|(g, (nodes, _))| nodes.iter().map(move |n| (n.out, g)))
            .collect();
        let mut later_reads: Vec<Vec<Typed>> = vec![Vec::new(); graphs.len()];
        for (g, (nodes, _)) in graphs.iter().enumerate() {
            for n in nodes {
                for input in &n.inputs {
                    if let Some(&m) = made_by.get(&input.0)
                        && m < g
                        && !later_reads[m].iter().any(|r| r.0 == input.0)
                    {
                        later_reads[m].push(input.clone());
                    }
                }
            }
        }
        let built: Vec<Graph> = graphs
            .into_iter()
            .zip(later_reads)
            .filter(|((nodes, _), _)| !nodes.is_empty())
            .map(|((nodes, mut outputs), extra)| {
                for r in extra {
                    if !outputs.iter().any(|o| o.0 == r.0) {
                        outputs.push(r);
                    }
                }
                graph_of(nodes, outputs)
            })
            .collect();
        let (function, compile) = (capture.function, capture.compile);
        let backward = capture.backward.is_some();
        if backward {
            if capture.recording {
                let records = self.graph_records(&capture, &built, "backward");
                if let Some(c) = self.compiled.functions[function].compiles.get_mut(compile) {
                    c.backward = records;
                }
            }
            return;
        }
        self.compiled.last_inputs = built
            .iter()
            .map(|g| {
                g.inputs
                    .iter()
                    .filter_map(|(id, _, _)| capture.tensors.get(id).cloned())
                    .collect()
            })
            .collect();
        self.compiled
            .latest
            .retain(|k, _| (k.0, k.1) != (function, compile));
        for (i, g) in built.iter().enumerate() {
            self.compiled
                .latest
                .insert((function, compile, i), g.clone());
        }
        if !capture.recording {
            return;
        }
        let records = self.graph_records(&capture, &built, "");
        if let Some(c) = self.compiled.functions[function].compiles.get_mut(compile) {
            c.graphs = records;
            c.breaks = breaks;
        }
    }
}

/// The graph of `nodes` returning `outputs`: the nodes the outputs depend on,
/// and as parameters the values they read that none of them makes.
fn graph_of(nodes: Vec<Node>, outputs: Vec<Typed>) -> Graph {
    let mut needed: HashSet<u64> = outputs.iter().map(|o| o.0).collect();
    let mut live = vec![false; nodes.len()];
    for (i, n) in nodes.iter().enumerate().rev() {
        if needed.contains(&n.out) {
            live[i] = true;
            needed.extend(n.inputs.iter().map(|x| x.0));
        }
    }
    let nodes: Vec<Node> = nodes
        .into_iter()
        .zip(live)
        .filter_map(|(n, l)| l.then_some(n))
        .collect();
    let made: HashSet<u64> = nodes.iter().map(|n| n.out).collect();
    let mut inputs: Vec<Typed> = Vec::new();
    let mut consider = |v: &Typed| {
        if !made.contains(&v.0) && !inputs.iter().any(|i| i.0 == v.0) {
            inputs.push(v.clone());
        }
    };
    for n in &nodes {
        n.inputs.iter().for_each(&mut consider);
    }
    outputs.iter().for_each(&mut consider);
    Graph {
        inputs,
        nodes,
        outputs,
    }
}
