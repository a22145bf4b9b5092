// Live progress of one report, from its Server-Sent Events stream
// (GET /reports/<id>/events): "status" events carry the job, "acp" events
// each ACP message. When the job ends the page reloads to show the result.
"use strict";
(function () {
  const section = document.getElementById("progress");
  const terminal = ["completed", "failed", "canceled", "deleted"];
  if (!section || terminal.includes(section.dataset.status)) {
    return;
  }
  const status = document.getElementById("status");
  const count = document.getElementById("count");
  const bar = document.getElementById("bar");
  const log = document.getElementById("log");
  const source = new EventSource("/reports/" + encodeURIComponent(section.dataset.report) + "/events");

  source.addEventListener("status", function (event) {
    const job = JSON.parse(event.data);
    status.textContent = job.status;
    status.className = "status-" + job.status;
    if (job.progress) {
      count.textContent = job.progress.tasks_done + " of " + job.progress.tasks_total;
      bar.max = Math.max(1, job.progress.tasks_total);
      bar.value = job.progress.tasks_done;
    }
    if (terminal.includes(job.status)) {
      source.close();
      window.location.reload();
    }
  });

  source.addEventListener("acp", function (event) {
    const message = JSON.parse(event.data);
    const item = document.createElement("li");
    const what = message.status || message.status_code || message.endpoint || "";
    item.textContent = [message.type, message.task_id, what].join(" · ");
    log.appendChild(item);
    while (log.children.length > 200) {
      log.removeChild(log.firstChild);
    }
  });
})();
