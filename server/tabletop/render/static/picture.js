// A picture drawn much smaller than its own size (a wide map on a narrow screen) may be seen at its own size instead,
// moved sideways inside its own box, which the page itself never is. Shared by the seat's page (and the app, which
// inlines it) and the watching site's game page; each keeps whether its watcher chose the full size.
"use strict";
function fitPicture(board, zoom, fullSize) {
  const svg = board.querySelector("svg");
  const own = svg && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
  const shrunk = own > 0 && board.clientWidth < own * 0.8;
  zoom.hidden = !shrunk && !fullSize;
  zoom.textContent = fullSize ? "Fit the picture to the width" : "Show the picture full size";
  zoom.setAttribute("aria-pressed", fullSize ? "true" : "false");
  board.classList.toggle("full-size", fullSize);
  if (svg) { svg.style.width = fullSize ? own + "px" : ""; }
  document.body.dataset.fullSize = fullSize ? "yes" : "no";
}
