// A game's replay: the slider picks a turn and the board shows the position after it.
// The server lays out every position's stones (bansugoroku/front/board.py) in the
// #replay-frames block; this only draws them, so it needs no rules of its own.
"use strict";
(function () {
  const data = document.getElementById("replay-frames");
  const slider = document.getElementById("replay-slider");
  if (!data || !slider) return;
  const frames = JSON.parse(data.textContent);
  const svg = document.querySelector(".replay .board");
  const layer = svg.querySelector("[data-stones]");
  const title = document.querySelector("[data-frame-title]");
  const rows = document.querySelectorAll(".turns li[data-turn]");
  const ns = "http://www.w3.org/2000/svg";
  const radius = layer.querySelector("circle")?.getAttribute("r") || "9";

  function show(index) {
    const frame = frames[index];
    const drawn = [];
    const circles = frame.circles;
    const counts = frame.counts;
    for (let at = 0; at < circles.length; at += 3) {
      const [x, y, color] = circles.slice(at, at + 3);
      const circle = document.createElementNS(ns, "circle");
      circle.setAttribute("class", "stone c" + color);
      circle.setAttribute("cx", x);
      circle.setAttribute("cy", y);
      circle.setAttribute("r", radius);
      drawn.push(circle);
    }
    for (let at = 0; at < counts.length; at += 3) {
      const [x, y, text] = counts.slice(at, at + 3);
      const label = document.createElementNS(ns, "text");
      label.setAttribute("class", "count");
      label.setAttribute("x", x);
      label.setAttribute("y", y);
      label.textContent = text;
      drawn.push(label);
    }
    layer.replaceChildren(...drawn);
    svg.setAttribute("aria-label", frame.text);
    title.textContent = frame.title;
    rows.forEach((row) => {
      if (Number(row.dataset.turn) === index) row.setAttribute("aria-current", "step");
      else row.removeAttribute("aria-current");
    });
  }

  slider.addEventListener("input", () => show(Number(slider.value)));
  document.querySelectorAll(".slider .step").forEach((button) => {
    button.addEventListener("click", () => {
      const next = Number(slider.value) + Number(button.dataset.step);
      if (next < 0 || next > frames.length - 1) return;
      slider.value = String(next);
      show(next);
    });
  });
  // A turn's link in the list (#turn-N) opens the replay at that turn.
  function fromLink() {
    const found = /^#turn-(\d+)$/.exec(location.hash);
    const index = found ? Number(found[1]) : NaN;
    if (!(index >= 0 && index < frames.length)) return false;
    slider.value = String(index);
    show(index);
    svg.closest(".replay").scrollIntoView({ block: "start" });
    return true;
  }
  window.addEventListener("hashchange", fromLink);
  if (!fromLink()) show(Number(slider.value));
})();
