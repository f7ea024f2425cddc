"""The structure of the §7 system, found once per model from the joint graph (Schmitt 7.1).

K = J M^-1 J^T couples two joint rows only where their joints share a moving body, so K is as sparse
as the mechanism. Its rows are factorised (kernels/sparse.py) in a minimum-degree order of the joint
graph: a chain or a tree is eliminated from its ends without fill, so the cost per step grows
linearly with the number of bodies (the linear time of Baraff 1996); where loops close, minimum
degree keeps the fill small. This module computes that order, K's pattern and L's: the numeric
factorisation every instant then only does arithmetic (the pattern of L, which Davis's up-looking
algorithm finds by walking the elimination tree, depends on the order alone).
"""
import heapq
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SystemPattern:
    order: np.ndarray  # (R,) the row eliminated at each position
    k_start: np.ndarray  # (R + 1,) column k of P K P^T's upper triangle holds entries k_start[k]:k_start[k + 1]
    k_index: np.ndarray  # (nnz,) their positions (row of P K P^T), ascending, the diagonal last
    # (C, 5) entry, row 1, side 1, row 2, side 2: K[entry] += J[row 1, side 1] . W[row 2, side 2]
    k_contribution: np.ndarray
    ldl_start: np.ndarray  # (R + 1,) column j of L holds ldl_start[j]:ldl_start[j + 1]
    # (R + 1,) row k of L (below the diagonal) is entries ldl_row_start[k]:ldl_row_start[k + 1]
    ldl_row_start: np.ndarray
    ldl_row_column: np.ndarray  # (nnz of L,) their columns, in the order the up-looking factorisation takes them
    ldl_row_position: np.ndarray  # (nnz of L,) where each is kept in L by columns (within ldl_start's column)


def minimum_degree_order(neighbours: list[set]) -> list[int]:
    """Greedy minimum-degree elimination order of a graph (ties by the lower index)."""
    graph = [set(adjacent) for adjacent in neighbours]
    alive = [True] * len(graph)
    heap = [(len(adjacent), node) for node, adjacent in enumerate(graph)]
    heapq.heapify(heap)
    order = []
    while heap:
        degree, node = heapq.heappop(heap)
        if not alive[node] or degree != len(graph[node]):
            continue  # a stale entry: the node was eliminated or its degree changed since
        alive[node] = False
        order.append(node)
        adjacent = graph[node]
        for other in adjacent:  # eliminating a node joins its neighbours into a clique (the fill)
            graph[other].discard(node)
            graph[other] |= adjacent - {other}
            heapq.heappush(heap, (len(graph[other]), other))
    return order


def system_pattern(row_joint: np.ndarray, joint_body: np.ndarray, body_dynamic: np.ndarray) -> SystemPattern:
    rows = len(row_joint)
    joints_with_rows = sorted(set(int(j) for j in row_joint))
    moving_bodies = [{int(b) for b in joint_body[j] if body_dynamic[b]} for j in joints_with_rows]
    by_body: dict[int, list[int]] = {}
    for k, bodies in enumerate(moving_bodies):
        for body in bodies:
            by_body.setdefault(body, []).append(k)
    neighbours: list[set[int]] = [set() for _ in joints_with_rows]
    for members in by_body.values():
        for k in members:
            neighbours[k].update(members)
            neighbours[k].discard(k)
    joint_order = [joints_with_rows[k] for k in minimum_degree_order(neighbours)]
    rows_of: dict[int, list[int]] = {j: [] for j in joints_with_rows}
    for r, j in enumerate(row_joint):
        rows_of[int(j)].append(r)
    order = np.array([r for j in joint_order for r in rows_of[j]], dtype=np.int64).reshape(rows)
    position = np.empty(rows, dtype=np.int64)
    position[order] = np.arange(rows)

    touching: dict[int, list[tuple[int, int]]] = {}  # moving body -> (row, side) of every row acting on it
    for r, j in enumerate(row_joint):
        for side in (0, 1):
            body = int(joint_body[j, side])
            if body_dynamic[body]:
                touching.setdefault(body, []).append((r, side))
    entries: dict[tuple[int, int], int] = {}
    contributions: list[tuple[int, int, int, int, int]] = []
    for pairs in touching.values():
        for first, (row_one, side_one) in enumerate(pairs):
            for row_other, side_other in pairs[first:]:
                if position[row_one] <= position[row_other]:
                    upper, lower = (row_one, side_one), (row_other, side_other)
                else:
                    upper, lower = (row_other, side_other), (row_one, side_one)
                key = (int(position[lower[0]]), int(position[upper[0]]))  # (column, row) of the upper triangle
                entry = entries.setdefault(key, len(entries))
                contributions.append((entry, upper[0], upper[1], lower[0], lower[1]))
    keys = sorted(entries)  # by column, then row: the diagonal comes last in each column
    renumber = np.empty(len(keys), dtype=np.int64)
    for new, key in enumerate(keys):
        renumber[entries[key]] = new
    k_index = np.array([row for _, row in keys], dtype=np.int64)
    k_start = np.searchsorted(np.array([column for column, _ in keys], dtype=np.int64), np.arange(rows + 1))
    contribution = np.array(contributions, dtype=np.int64).reshape(-1, 5)
    contribution[:, 0] = renumber[contribution[:, 0]]
    ldl_start, ldl_parent = _elimination_tree(rows, k_start, k_index)
    return SystemPattern(order, k_start.astype(np.int64), k_index, contribution, ldl_start,
                         *_row_patterns(rows, k_start, k_index, ldl_start, ldl_parent))


def _elimination_tree(n: int, k_start: np.ndarray, k_index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Davis's ldl_symbolic: the elimination tree and the column counts of L."""
    parent = np.full(n, -1, dtype=np.int64)
    flag = np.empty(n, dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    for k in range(n):
        flag[k] = k
        for p in range(k_start[k], k_start[k + 1]):
            i = int(k_index[p])
            while i < k and flag[i] != k:
                if parent[i] == -1:
                    parent[i] = k
                count[i] += 1
                flag[i] = k
                i = int(parent[i])
    return np.concatenate(([0], np.cumsum(count))).astype(np.int64), parent


def _row_patterns(n: int, k_start: np.ndarray, k_index: np.ndarray, ldl_start: np.ndarray,
                  parent: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """L by rows: row k's columns are the paths up the elimination tree from the entries of K's column
    k (Davis's ldl_numeric, "Algorithm 849"), taken in its topological order, each path's nodes
    pushed onto a stack. Returns (row start, columns, the position of each in L by columns): entry
    L[k, i] comes after the entries of column i from the rows before k."""
    row_start = np.zeros(n + 1, dtype=np.int64)
    columns: list[int] = []
    positions: list[int] = []
    filled = ldl_start[:n].copy()
    flag = np.full(n, -1, dtype=np.int64)
    for k in range(n):
        flag[k] = k
        stack: list[int] = []
        for p in range(k_start[k], k_start[k + 1]):
            i = int(k_index[p])
            path = []
            while flag[i] != k:
                path.append(i)
                flag[i] = k
                i = int(parent[i])
            stack = path + stack  # a later path is taken first, each from its lowest node up
        for i in stack:
            columns.append(i)
            positions.append(int(filled[i]))
            filled[i] += 1
        row_start[k + 1] = len(columns)
    return row_start, np.array(columns, dtype=np.int64), np.array(positions, dtype=np.int64)
