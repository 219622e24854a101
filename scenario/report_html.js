// The report's controls: per shot, side by side / swipe / blink; for all
// shots, zoom, the difference box and the failing-only filter. No network,
// no library: the page works from the artifact's folder as it is.
"use strict";
(function () {
  const body = document.body;

  // Zoom: "fit" scales each picture to its pane; N× shows N screen pixels
  // per picture pixel (pixelated), the panes scrolling together.
  const zoom = document.getElementById("zoom");
  if (zoom) {
    zoom.addEventListener("change", function () {
      const fit = zoom.value === "fit";
      body.classList.toggle("zoomed", !fit);
      document.documentElement.style.setProperty("--zoom", fit ? "1" : zoom.value);
    });
  }
  const box = document.getElementById("show-box");
  if (box) {
    box.addEventListener("change", function () { body.classList.toggle("hide-box", !box.checked); });
  }
  const only = document.getElementById("only-failing");
  if (only) {
    only.addEventListener("change", function () { body.classList.toggle("hide-passing", only.checked); });
  }

  document.querySelectorAll(".shot").forEach(function (shot) {
    const view = shot.querySelector(".view");
    // A passing shot's golden is referenced where it lies, which a
    // downloaded artifact may not hold: say so instead of a broken picture.
    const golden = shot.querySelector("figure.pane.golden");
    const goldenImg = golden && golden.querySelector("img");
    function goldenMissing() {
      const p = document.createElement("p");
      p.textContent = "golden not found beside this report: " + golden.dataset.path;
      golden.querySelector(".frame").replaceWith(p);
      golden.classList.add("missing");
      shot.classList.add("no-golden");
      view.className = "view side";
    }
    if (goldenImg) {
      if (goldenImg.complete && goldenImg.naturalWidth === 0) {
        goldenMissing();
      } else {
        goldenImg.addEventListener("error", goldenMissing);
      }
    }
    const panes = shot.querySelectorAll(".pane");
    // Scrolling one zoomed pane scrolls the others to the same place.
    panes.forEach(function (p) {
      p.addEventListener("scroll", function () {
        panes.forEach(function (q) {
          if (q !== p && (q.scrollLeft !== p.scrollLeft || q.scrollTop !== p.scrollTop)) {
            q.scrollLeft = p.scrollLeft;
            q.scrollTop = p.scrollTop;
          }
        });
      });
    });
    const over = shot.querySelector("img.over");
    if (!over) {
      return;
    }
    const swipe = shot.querySelector("input.swipe");
    const divider = shot.querySelector(".divider");
    // Swipe: the new picture over the golden, shown left of the handle.
    function setSwipe() {
      const v = Number(swipe.value);
      over.style.clipPath = "inset(0 " + (100 - v) + "% 0 0)";
      divider.style.left = v + "%";
    }
    swipe.addEventListener("input", setSwipe);
    setSwipe();

    // Blink: the golden and the new picture in turn, twice a second.
    const toggle = shot.querySelector(".blink-toggle");
    const label = shot.querySelector(".blink-label");
    let timer = null;
    function showGolden(g) {
      view.classList.toggle("blink-golden", g);
      label.textContent = "showing: " + (g ? "golden" : "new");
    }
    function stopBlink() {
      if (timer !== null) {
        clearInterval(timer);
        timer = null;
      }
      toggle.textContent = "play";
    }
    function startBlink() {
      stopBlink();
      timer = setInterval(function () { showGolden(!view.classList.contains("blink-golden")); }, 500);
      toggle.textContent = "pause";
    }
    toggle.addEventListener("click", function () {
      if (timer === null) {
        startBlink();
      } else {
        stopBlink();
      }
    });

    shot.querySelectorAll(".modes input").forEach(function (radio) {
      radio.addEventListener("change", function () {
        if (!radio.checked) {
          return;
        }
        view.classList.remove("side", "swipe", "blink");
        view.classList.add(radio.value);
        showGolden(false);
        if (radio.value === "blink") {
          startBlink();
        } else {
          stopBlink();
        }
      });
    });
  });
})();
