// Live progress of one report, from its Server-Sent Events stream
// (GET /reports/<id>/events): "status" events carry the job, "acp" events
// each ACP message. On each change the page fetches GET /reports/<id> (its
// blueprint summary) and redraws the blueprint as a graph — one box per task,
// in columns by dependency depth, coloured by state — and the timeline of the
// agents' work, the pictures the report's appendix draws. A line in plain
// words says what is happening. When the job stops (finished, or waiting for
// a review) the page reloads to show the result or the review form.
"use strict";
(function () {
  const section = document.getElementById("progress");
  if (!section) {
    return;
  }
  const id = section.dataset.report;
  const SVG = "http://www.w3.org/2000/svg";
  const stops = ["completed", "failed", "canceled", "deleted", "input_required"];
  const status = document.getElementById("status");
  const count = document.getElementById("count");
  const bar = document.getElementById("bar");
  const activity = document.getElementById("activity");
  const dag = document.getElementById("dag");
  const timeline = document.getElementById("timeline");
  const failures = document.getElementById("failures");
  let pending = null;

  function el(name, attrs, text) {
    const node = document.createElementNS(SVG, name);
    for (const key in attrs) {
      node.setAttribute(key, attrs[key]);
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function short(text, limit) {
    return text.length > limit ? text.slice(0, limit - 1) + "…" : text;
  }

  function words(job, tasks) {
    if (job.status === "submitted") {
      return "Waiting for a free worker…";
    }
    if (job.status === "input_required") {
      return "Waiting for you to review the plan.";
    }
    if (job.status !== "working") {
      return "";
    }
    if (!tasks.length) {
      return "Planning the report on " + job.topic + "…";
    }
    const running = tasks.filter(function (t) { return t.status === "running"; });
    if (running.length) {
      const first = running[0].aim.replace(/\s*\(section \d+\)$/, "");
      return first + (running.length > 1 ? " — and " + (running.length - 1) + " more task(s) at once" : "") + "…";
    }
    if (tasks.every(function (t) { return ["done", "failed", "skipped"].includes(t.status); })) {
      return "Putting the report together and rendering the PDF…";
    }
    return "Starting the next tasks…";
  }

  function depths(tasks) {
    const byId = {};
    tasks.forEach(function (t) { byId[t.id] = t; });
    const memo = {};
    function depth(t, seen) {
      if (memo[t.id] !== undefined) {
        return memo[t.id];
      }
      let d = 0;
      t.depends_on.forEach(function (dep) {
        if (byId[dep] && !seen.has(dep)) {
          seen.add(dep);
          d = Math.max(d, depth(byId[dep], seen) + 1);
        }
      });
      memo[t.id] = d;
      return d;
    }
    tasks.forEach(function (t) { depth(t, new Set([t.id])); });
    return memo;
  }

  function drawDag(tasks) {
    const depth = depths(tasks);
    const columns = [];
    tasks.forEach(function (t) {
      (columns[depth[t.id]] = columns[depth[t.id]] || []).push(t);
    });
    const w = 150, h = 34, gx = 40, gy = 12;
    const rows = Math.max.apply(null, columns.map(function (c) { return c.length; }));
    const svg = el("svg", {width: columns.length * (w + gx) + 10, height: rows * (h + gy) + 10,
                           role: "img", "aria-label": "execution blueprint"});
    const at = {};
    columns.forEach(function (column, x) {
      column.forEach(function (t, y) {
        at[t.id] = {x: 5 + x * (w + gx), y: 5 + y * (h + gy)};
      });
    });
    tasks.forEach(function (t) {
      t.depends_on.forEach(function (dep) {
        if (at[dep]) {
          const a = at[dep], b = at[t.id];
          svg.appendChild(el("path", {d: "M" + (a.x + w) + "," + (a.y + h / 2) + " C" + (a.x + w + gx / 2) + ","
            + (a.y + h / 2) + " " + (b.x - gx / 2) + "," + (b.y + h / 2) + " " + b.x + "," + (b.y + h / 2)}));
        }
      });
    });
    tasks.forEach(function (t) {
      const p = at[t.id];
      const g = el("g", {"data-task": t.id, "data-status": t.status, class: "task"});
      g.appendChild(el("title", {}, t.id + ": " + t.aim + " (" + t.status + ")" + (t.reason ? " — " + t.reason : "")));
      g.appendChild(el("rect", {x: p.x, y: p.y, width: w, height: h, rx: 4, class: "task-" + t.status}));
      g.appendChild(el("text", {x: p.x + 6, y: p.y + 14}, short(t.id, 22)));
      g.appendChild(el("text", {x: p.x + 6, y: p.y + 27}, t.agent + " · " + t.status));
      svg.appendChild(g);
    });
    dag.replaceChildren(svg);
  }

  function drawTimeline(tasks) {
    const timed = tasks.filter(function (t) { return t.started_at; });
    if (!timed.length) {
      timeline.replaceChildren();
      return;
    }
    const t0 = Math.min.apply(null, timed.map(function (t) { return Date.parse(t.started_at); }));
    const now = Date.now();
    const end = Math.max.apply(null, timed.map(function (t) {
      return t.finished_at ? Date.parse(t.finished_at) : now;
    }));
    const span = Math.max(1, end - t0), left = 150, width = 600, row = 14;
    const svg = el("svg", {width: left + width + 60, height: timed.length * row + 24, role: "img",
                           "aria-label": "timeline"});
    timed.forEach(function (t, i) {
      const start = Date.parse(t.started_at) - t0;
      const stop = (t.finished_at ? Date.parse(t.finished_at) : now) - t0;
      svg.appendChild(el("text", {x: 4, y: i * row + 11}, short(t.id, 24)));
      svg.appendChild(el("rect", {x: left + (start / span) * width, y: i * row + 2,
                                  width: Math.max(2, ((stop - start) / span) * width), height: row - 4,
                                  class: "bar-" + t.status, "data-task": t.id}));
    });
    svg.appendChild(el("text", {x: left + width + 4, y: timed.length * row + 16}, (span / 1000).toFixed(1) + " s"));
    timeline.replaceChildren(svg);
  }

  function drawFailures(tasks) {
    const failed = tasks.filter(function (t) { return t.status === "failed" || t.status === "skipped"; });
    failures.replaceChildren.apply(failures, failed.map(function (t) {
      const item = document.createElement("li");
      item.textContent = (t.aim || t.id) + ": " + (t.reason || t.status);
      return item;
    }));
  }

  async function refresh() {
    pending = null;
    const response = await fetch("/reports/" + encodeURIComponent(id), {headers: {Accept: "application/json"}});
    if (!response.ok) {
      return;
    }
    const job = await response.json();
    const tasks = (job.blueprint && job.blueprint.items) || [];
    if (tasks.length) {
      drawDag(tasks);
      drawTimeline(tasks);
      drawFailures(tasks);
    }
    activity.textContent = words(job, tasks);
    if (job.status === "working") {
      setTimeout(later, 700);  // blueprint.json is written at most every 0.5 s: look again shortly
    }
  }

  function later() {
    if (pending === null) {
      pending = setTimeout(refresh, 250);
    }
  }

  refresh();
  if (stops.includes(section.dataset.status)) {
    return;
  }
  const source = new EventSource("/reports/" + encodeURIComponent(id) + "/events");
  source.addEventListener("status", function (event) {
    const job = JSON.parse(event.data);
    status.textContent = job.status;
    status.className = "status-" + job.status;
    if (job.progress) {
      count.textContent = job.progress.tasks_done + " of " + job.progress.tasks_total;
      if (bar) {
        bar.max = Math.max(1, job.progress.tasks_total);
        bar.value = job.progress.tasks_done;
      }
    }
    later();
    if (stops.includes(job.status)) {
      source.close();
      setTimeout(function () { window.location.reload(); }, 300);
    }
  });
  source.addEventListener("acp", later);
})();
