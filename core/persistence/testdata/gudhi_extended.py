# Oracle: extended persistence of lower-star graph filtrations by GUDHI.
# stdin: JSON list of {"n": int, "edges": [[u, v], ...], "f": [float, ...]}
# stdout: JSON list of {"dim0": [[b, d], ...], "dim1": [[b, d], ...]},
# grouping GUDHI's four diagrams by the homological dimension it reports.
import json
import sys

import gudhi

out = []
for g in json.load(sys.stdin):
    st = gudhi.SimplexTree()
    for v, x in enumerate(g["f"]):
        st.insert([v], filtration=x)
    for u, v in g["edges"]:
        st.insert([u, v], filtration=max(g["f"][u], g["f"][v]))
    st.extend_filtration()
    st.compute_persistence(min_persistence=-1)
    dims = {0: [], 1: []}
    for diagram in st.extended_persistence(min_persistence=-1):
        for dim, (b, d) in diagram:
            dims[dim].append([b, d])
    out.append({"dim0": dims[0], "dim1": dims[1]})
json.dump(out, sys.stdout)
