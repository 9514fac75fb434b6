// Draws molecules as chemists draw them, for the Data and Explore tabs and
// the Classify tab's Explain view, with RDKit MinimalLib (npm @rdkit/rdkit,
// BSD-3-Clause): a 2D depiction with element symbols, charges and bond
// orders, atoms and bonds highlighted in the colours given.
//
// The page (wasm/app/rdkit_js.go) inserts this script when it first draws
// a molecule, then calls wkpiDepict(job) with job a JSON string:
//   {files: {glue, js, wasm}  the served URLs of this file and of RDKit's,
//    cache: the service worker's cache ("" when there is none),
//    molecule: a SMILES or a molfile, whose atom i is graph node i,
//    layOut: true for a molfile without coordinates, to lay out,
//    nodes: the graph's number of nodes,
//    atoms: [[r, g, b], ...]  one colour (0..1) per atom, or none,
//    bonds: [{u, v, colour: [r, g, b]}, ...]  one colour per bond, by its atoms, or none,
//    numbers: true to write each atom's number (from 0, the graph's node) beside it,
//    width, height}
// and gets a promise of the SVG text. It rejects when RDKit cannot load or
// read the molecule, or reads other atoms or bonds than the graph's: the
// page then draws the graph's own layout. A molecule RDKit reads but
// cannot sanitise (MUTAG's nitro groups are uncharged N with four bonds)
// is drawn as written.
"use strict";

let rdkit = null; // the promise of RDKit's module, made on the first call

// load caches RDKit's files before loading them: go-app's service worker
// answers from any cache (cache first), so once there they are used
// offline too. They are not in its install list, which every first visit
// downloads; this cache is the version's, dropped with it.
async function load(files, cache) {
  if (cache && self.caches) {
    try {
      const c = await caches.open(cache);
      for (const url of [files.glue, files.js, files.wasm]) {
        if (!(await c.match(url))) await c.add(url);
      }
    } catch (err) {
      console.warn("RDKit is not cached for offline use:", err);
    }
  }
  await new Promise((ok, fail) => {
    const s = document.createElement("script");
    s.src = files.js;
    s.onload = ok;
    s.onerror = () => fail(new Error("cannot load " + files.js));
    document.head.appendChild(s);
  });
  return initRDKitModule({ locateFile: () => files.wasm });
}

self.wkpiDepict = async (text) => {
  const job = JSON.parse(text);
  if (!rdkit) {
    rdkit = load(job.files, job.cache);
    rdkit.catch(() => { rdkit = null; }); // try again on the next call
  }
  const RDKit = await rdkit;
  const mol = RDKit.get_mol(job.molecule) || RDKit.get_mol(job.molecule, '{"sanitize":false}');
  if (!mol) throw new Error("RDKit cannot read the molecule");
  try {
    const n = mol.get_num_atoms();
    if (n !== job.nodes) {
      throw new Error(`RDKit reads ${n} atoms, the graph has ${job.nodes} nodes`);
    }
    if (job.layOut) mol.set_new_coords();
    // Bond j is RDKit's j-th bond; find each of ours by its two atoms.
    const index = new Map();
    JSON.parse(mol.get_json()).molecules[0].bonds.forEach((b, j) => {
      index.set(Math.min(...b.atoms) + "-" + Math.max(...b.atoms), j);
    });
    const details = {
      atoms: [], bonds: [], highlightAtomColors: {}, highlightBondColors: {},
      width: job.width, height: job.height,
      addAtomIndices: !!job.numbers,
      // Letters and numbers as SVG text rather than glyph outlines: the
      // page's font, selectable, and readable by tests.
      noFreetype: true,
    };
    (job.atoms || []).forEach((c, i) => {
      details.atoms.push(i);
      details.highlightAtomColors[i] = c;
    });
    const bonds = job.bonds || [];
    for (const { u, v, colour } of bonds) {
      const j = index.get(Math.min(u, v) + "-" + Math.max(u, v));
      if (j === undefined) throw new Error(`RDKit has no bond between atoms ${u} and ${v}`);
      details.bonds.push(j);
      details.highlightBondColors[j] = colour;
    }
    if (bonds.length > 0 && details.bonds.length !== index.size) {
      throw new Error(`RDKit reads ${index.size} bonds, the graph has ${details.bonds.length} edges`);
    }
    return mol.get_svg_with_highlights(JSON.stringify(details));
  } finally {
    mol.delete();
  }
};
