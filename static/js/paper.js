// Job page (Drucken & Export): poll the job's status until it is finished,
// move the progress bar and show the download. No inline scripts (CSP).
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const job = document.getElementById("job");
  if (!job || job.dataset.finished === "1") return;
  const bar = job.querySelector("[data-job-progress]");
  const status = job.querySelector("[data-job-status]");
  const message = job.querySelector("[data-job-message]");
  const download = job.querySelector("[data-job-download]");
  const poll = async () => {
    let data;
    try {
      const response = await fetch(job.dataset.statusUrl, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(response.statusText);
      data = await response.json();
    } catch (error) {
      window.setTimeout(poll, 3000);  // the server is busy or restarting
      return;
    }
    bar.value = data.progress;
    bar.textContent = `${data.progress} %`;
    status.textContent = data.status_label;
    message.textContent = data.message;
    if (!data.finished) {
      window.setTimeout(poll, 1000);
      return;
    }
    job.dataset.finished = "1";
    if (data.download) {
      download.href = data.download;
      download.hidden = false;
    }
  };
  window.setTimeout(poll, 500);
});
