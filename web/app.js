// The gridbits playground: draw on a grid, see the library's answer (pkg/ is the wasm-bindgen
// output of crates/gridbits-web, built by `make playground-build`).
import init, { compute } from "./pkg/gridbits_web.js";

const CELL = 22;
const $ = (id) => document.getElementById(id);

// Three boards: the terrain of the grid commands, a Puyo field and a Tetris matrix.
function blank(w, h) {
  return Array.from({ length: h }, () => Array(w).fill("."));
}
function fromText(text) {
  return text.trim().split("\n").map((row) => row.split(""));
}
const boards = {
  terrain: blank(32, 20),
  puyo: fromText(
    "......\n......\n......\n......\n......\n......\n......\n" +
    "......\nB.....\nGBR...\nGBRY..\nGGBRYY\n"),
  tetris: fromText(
    "..........\n".repeat(16) + "......#...\n##...###..\n###.#####.\n####.#####\n"),
};
(function seedTerrain() {
  const t = boards.terrain;
  for (let y = 3; y < 17; y++) t[y][10] = "#";
  for (let x = 10; x < 24; x++) t[16][x] = "#";
  for (let y = 0; y < 12; y++) t[y][22] = "#";
  t[5][4] = "A";
  t[14][28] = "B";
  t[2][27] = "C";
})();
let fillStart = [1, 1];

const MODES = {
  fill: { board: "terrain", tools: [["#", "wall"], [".", "erase"], ["start", "fill start"]] },
  distance: { board: "terrain", moves: true, tools: [["#", "wall"], [".", "erase"], ["A", "source A"], ["B", "source B"]] },
  voronoi: { board: "terrain", moves: true, tools: [["#", "wall"], [".", "erase"], ["A", "player A"], ["B", "player B"], ["C", "player C"], ["D", "player D"]] },
  labels: { board: "terrain", tools: [["#", "wall"], [".", "erase"]] },
  reach: { board: "terrain", moves: true, tools: [["#", "wall"], [".", "erase"], ["A", "piece A"], ["B", "piece B"]] },
  puyo: { board: "puyo", tools: [["R", "red"], ["G", "green"], ["B", "blue"], ["Y", "yellow"], ["P", "purple"], ["O", "garbage"], [".", "erase"]] },
  tetris: { board: "tetris", tools: [["#", "block"], [".", "erase"]] },
};
const PLAYER = { A: "#e4572e", B: "#2e86ab", C: "#3bb273", D: "#a05195" };
const PUYO = { R: "#e0413a", G: "#3cb043", B: "#2f6fde", Y: "#e8c21a", P: "#9b4fd0", O: "#aaaaaa",
  1: "#e0413a", 2: "#3cb043", 3: "#2f6fde", 4: "#e8c21a", 5: "#9b4fd0", 0: "#aaaaaa" };

let result = null;

function mode() { return $("mode").value; }
function board() { return boards[MODES[mode()].board]; }
function gridText() { return board().map((r) => r.join("")).join("\n") + "\n"; }
function option() {
  const m = mode();
  if (m === "fill") return `${fillStart[0]},${fillStart[1]}`;
  if (MODES[m].moves) return $("moves").value;
  if (m === "labels") return "4";
  if (m === "tetris") return $("piece").value;
  return "";
}

function setTools() {
  const m = MODES[mode()];
  $("tool").innerHTML = m.tools.map(([v, name]) => `<option value="${v}">${name}</option>`).join("");
  $("moves-label").style.display = m.moves ? "" : "none";
  $("piece-label").style.display = mode() === "tetris" ? "" : "none";
  $("step-label").style.display = mode() === "puyo" || mode() === "tetris" ? "" : "none";
  $("step").value = 0;
}

function update() {
  const text = gridText();
  const opt = option();
  const json = compute(mode(), text, opt);
  $("command").textContent = mode();
  $("option").textContent = opt;
  $("grid").textContent = text;
  $("answer").textContent = json;
  result = JSON.parse(json);
  const step = $("step");
  if (mode() === "puyo" && result.steps) step.max = result.steps.length;
  if (mode() === "tetris" && result.placements) step.max = Math.max(0, result.placements.length - 1);
  if (+step.value > +step.max) step.value = step.max;
  draw();
}

function hsl(i) { return `hsl(${(i * 137.5) % 360}, 65%, 60%)`; }

function draw() {
  const b = board();
  const h = b.length, w = b[0].length;
  const canvas = $("board");
  canvas.width = w * CELL;
  canvas.height = h * CELL;
  const ctx = canvas.getContext("2d");
  const cell = (x, y, color) => { ctx.fillStyle = color; ctx.fillRect(x * CELL, y * CELL, CELL, CELL); };
  const letter = (x, y, c, color = "#fff") => {
    ctx.fillStyle = color; ctx.font = `bold ${CELL * 0.6}px sans-serif`;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(c, x * CELL + CELL / 2, y * CELL + CELL / 2 + 1);
  };
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const m = mode();
  const err = result && result.error;
  let summary = err ? `error: ${result.error}` : "";
  let rows = b;
  if (m === "puyo" && !err) {
    const k = +$("step").value;
    if (k > 0) rows = result.steps[k - 1].board.map((r) => r.split(""));
    // The answer's boards have the field's 12 rows (13 with the hidden row): align at the floor.
    rows = rows.slice(rows.length - h);
    summary = `${result.chain}-chain, score ${result.score}; showing ` +
      (k === 0 ? "the field" : `step ${k} (cleared ${result.steps[k - 1].cleared}, score ${result.steps[k - 1].score})`);
    $("step-text").textContent = k === 0 ? "field" : `step ${k}`;
  }
  let maxD = 0;
  if (m === "distance" && !err) maxD = Math.max(1, ...result.distance.flat().filter((d) => d !== null));
  const reached = new Set();
  if ((m === "fill" || m === "reach") && !err) result.cells.forEach(([x, y]) => reached.add(`${x},${y}`));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = rows[y][x];
      if (m === "puyo") {
        if (c !== ".") cell(x, y, PUYO[c] || "#666");
        continue;
      }
      if (c === "#") { cell(x, y, "#333"); continue; }
      if (!err && m === "distance") {
        const d = result.distance[y][x];
        if (d !== null) {
          cell(x, y, `hsl(${220 - 220 * d / maxD}, 70%, ${75 - 25 * d / maxD}%)`);
          if (c === ".") letter(x, y, String(d), "#222");
        }
      } else if (!err && m === "voronoi") {
        const o = result.owner[y][x];
        if (PLAYER[o]) { ctx.globalAlpha = c === "." ? 0.45 : 1; cell(x, y, PLAYER[o]); ctx.globalAlpha = 1; }
        else if (o !== ".") cell(x, y, "#ccc");
      } else if (!err && m === "labels") {
        const l = result.labels[y][x];
        if (l > 0) cell(x, y, hsl(l));
      } else if (reached.has(`${x},${y}`)) {
        cell(x, y, m === "fill" ? "#8ecae6" : "#ffd166");
      }
      if (c !== "." && c !== "#") { cell(x, y, PLAYER[c] || "#555"); letter(x, y, c); }
    }
  }
  if (m === "fill") letter(fillStart[0], fillStart[1], "S", "#023047");
  if (m === "tetris" && !err && result.placements.length > 0) {
    const k = +$("step").value;
    const p = result.placements[k];
    ctx.globalAlpha = 0.8;
    p.cells.forEach(([x, y]) => y >= 0 && cell(x, y, "#b5179e"));
    ctx.globalAlpha = 1;
    $("step-text").textContent = `placement ${k}`;
    summary = `${result.count} placements of ${$("piece").value}; showing ${k}: rotation ${p.rotation}, x ${p.x}, y ${p.y}` +
      (p.spin !== "none" ? `, ${p.spin}` : "");
  }
  if (!err && m === "fill") summary = `filled ${result.size} cells`;
  if (!err && m === "distance") summary = `largest distance ${maxD}`;
  if (!err && m === "voronoi") summary = Object.entries(result.players).map(([p, n]) => `${p}: ${n}`).join(", ") +
    `, contested ${result.contested}, unreachable ${result.unreachable}`;
  if (!err && m === "labels") summary = `${result.count} components, sizes ${result.sizes.join(" ")}`;
  if (!err && m === "reach") summary = `${result.count} cells reachable in one move`;
  ctx.strokeStyle = "#ddd";
  for (let x = 0; x <= w; x++) { ctx.beginPath(); ctx.moveTo(x * CELL + 0.5, 0); ctx.lineTo(x * CELL + 0.5, h * CELL); ctx.stroke(); }
  for (let y = 0; y <= h; y++) { ctx.beginPath(); ctx.moveTo(0, y * CELL + 0.5); ctx.lineTo(w * CELL, y * CELL + 0.5); ctx.stroke(); }
  $("summary").textContent = summary;
}

// Drawing: a click sets the cell to the tool (or back to '.' when it already is); a drag
// paints what the first cell got.
let paint = null;
function cellAt(ev) {
  const r = $("board").getBoundingClientRect();
  const x = Math.floor((ev.clientX - r.left) / CELL), y = Math.floor((ev.clientY - r.top) / CELL);
  const b = board();
  return y >= 0 && y < b.length && x >= 0 && x < b[0].length ? [x, y] : null;
}
function apply(xy) {
  if (!xy) return;
  const [x, y] = xy;
  const tool = $("tool").value;
  if (tool === "start") { fillStart = [x, y]; update(); return; }
  const b = board();
  if (paint === null) paint = b[y][x] === tool ? "." : tool;
  if (b[y][x] !== paint) { b[y][x] = paint; update(); }
}
$("board").addEventListener("mousedown", (ev) => { paint = null; apply(cellAt(ev)); });
$("board").addEventListener("mousemove", (ev) => { if (ev.buttons & 1 && paint !== null) apply(cellAt(ev)); });
window.addEventListener("mouseup", () => { paint = null; });
$("mode").addEventListener("change", () => { setTools(); update(); });
for (const id of ["moves", "piece"]) $(id).addEventListener("change", update);
$("step").addEventListener("input", draw);
$("clear").addEventListener("click", () => {
  const b = board();
  b.forEach((r) => r.fill("."));
  update();
});

await init();
setTools();
update();
document.body.dataset.ready = "1";
