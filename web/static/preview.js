// The host's camera view: the camera's last frame with a box round each die found, refreshed
// every second while it is open, so the owner can aim the camera at the tray.
"use strict";

const Preview = (() => {
  let missing = false, drawn = "";

  function draw() {
    const section = $("preview");
    section.hidden = missing || !(app.host && app.hostOpen && app.sensors);
    if (section.hidden) return;
    if (drawn !== app.lang) {
      drawn = app.lang;
      const open = section.querySelector("details[open]") !== null;
      section.innerHTML = `<details data-details="preview"${open ? " open" : ""}>` +
        `<summary>${esc(t("ui.preview"))}</summary><p>${esc(t("ui.preview_hint"))}</p>` +
        `<img alt="${esc(t("ui.preview"))}" width="640"></details>`;
      section.querySelector("img").addEventListener("error", () => { missing = true; draw(); });
    }
    if (section.querySelector("details[open]")) {
      section.querySelector("img").src = `/api/preview.jpg?at=${Date.now()}`;
    }
  }

  setInterval(draw, 1000);
  setInterval(() => { missing = false; }, 30000);  // a camera that comes back
  return {draw};
})();
