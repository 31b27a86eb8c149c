// The replay viewer: each game's pictures are one SVG whose elements carry
// data-t="A-B C" (the pictures, by index, that show them); showing picture i
// hides every element whose ranges miss i. A tab per variant, and per
// variant a picker of its games; each game keeps the turn it was left at.
// The picture's legend is moved beside it (an SVG of its own), and each
// picture is framed on the part of the board its game has reached so far
// (the frame's `view`), its coordinates kept along the frame's edges: a
// game opens on its first tiles, not on an empty corner of its final board.
(function () {
  'use strict';
  const section = document.getElementById('replay');
  if (!section) return;
  const tabs = Array.from(section.querySelectorAll('.tab'));
  const pickers = Array.from(/** @type {NodeListOf<HTMLSelectElement>} */ (section.querySelectorAll('.game-picker')));
  const slider = /** @type {HTMLInputElement} */ (section.querySelector('.slider'));
  const position = section.querySelector('.position');
  const button = (step) =>
    /** @type {HTMLButtonElement} */ (section.querySelector('[data-step="' + step + '"]'));

  function ranges(text) {
    return text.split(' ').filter(Boolean).map(function (r) {
      const [a, b] = r.split('-');
      return [Number(a), b === undefined ? Number(a) : Number(b)];
    });
  }

  const viewers = Array.from(/** @type {NodeListOf<HTMLElement>} */ (section.querySelectorAll('.viewer'))).map(function (el) {
    const frames = JSON.parse(el.querySelector('script.frames').textContent);
    const items = Array.from(/** @type {NodeListOf<SVGElement>} */ (el.querySelectorAll('.board [data-t]'))).map(function (node) {
      return { node: node, ranges: ranges(node.getAttribute('data-t')) };
    });
    return {
      el: el,
      variant: el.getAttribute('data-variant'),
      game: el.getAttribute('data-game'),
      frames: frames,
      items: items,
      frame: 0,
      picture: el.querySelector('.board svg'),
      split: false,
    };
  });

  // The legend out of the picture, into an SVG of its own beside it (done
  // once the viewer shows, when the legend can be measured).
  function split(viewer) {
    if (viewer.split || viewer.el.hidden) return;
    viewer.split = true;
    const svg = viewer.picture;
    const panel = svg.querySelector('g.panel');
    svg.classList.add('picture');
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    if (!panel) return;
    const box = panel.getBBox();
    const left = Math.max(0, Math.floor(box.x) - 8);
    const width = Number(svg.getAttribute('width')) - left;
    const height = Math.ceil(box.y + box.height + 8);
    const legend = svg.cloneNode(false);
    legend.setAttribute('class', 'legend');
    legend.setAttribute('viewBox', left + ' 0 ' + width + ' ' + height);
    legend.setAttribute('width', String(width));
    legend.setAttribute('height', String(height));
    const defs = svg.querySelector('defs');
    if (defs) legend.appendChild(defs.cloneNode(true));
    legend.appendChild(panel);
    svg.after(legend);
    reframe(viewer);
  }

  // Picture f of a viewer framed on its view, the coordinates along the
  // view's top and left edges.
  function reframe(viewer) {
    if (!viewer.split) return;
    const view = viewer.frames[viewer.frame].view;
    const svg = viewer.picture;
    svg.setAttribute('viewBox', view.join(' '));
    svg.setAttribute('width', String(view[2]));
    svg.setAttribute('height', String(view[3]));
    // Drawn at the view's own shape: as large as the room beside the
    // legend (or above it, on a narrow screen) and 70% of the window's
    // height allow, up to twice its size; at full size, at its own.
    let scale = 1;
    if (!section.classList.contains('full')) {
      const room = svg.parentElement.clientWidth;
      const legend = svg.nextElementSibling;
      const beside = legend ? room - legend.getBoundingClientRect().width - 8 : room;
      const width = beside >= 360 ? beside : room;
      scale = Math.min(2, width / view[2], Math.max(240, innerHeight * 0.7) / view[3]);
    }
    svg.style.width = view[2] * scale + 'px';
    svg.style.height = view[3] * scale + 'px';
    // (A coordinate shows where its cell's middle is in the view, inside
    // the margin the view keeps for them.)
    const inside = (at, from, size) => at >= from + 30 && at <= from + size - 30;
    svg.querySelectorAll('g.grid text.x').forEach((t) => {
      t.setAttribute('y', String(view[1] + 20));
      t.style.display = inside(Number(t.getAttribute('x')), view[0], view[2]) ? '' : 'none';
    });
    svg.querySelectorAll('g.grid text.y').forEach((t) => {
      t.setAttribute('x', String(view[0] + 15));
      t.style.display = inside(Number(t.getAttribute('y')), view[1], view[3]) ? '' : 'none';
    });
  }
  let current = 0;

  function show(v, f) {
    const viewer = viewers[v];
    f = Math.max(0, Math.min(viewer.frames.length - 1, f));
    viewer.frame = f;
    for (const item of viewer.items) {
      const on = item.ranges.some((r) => r[0] <= f && f <= r[1]);
      item.node.style.display = on ? '' : 'none';
    }
    const frame = viewer.frames[f];
    const turns = viewer.frames.length - 2;
    const turn = viewer.el.querySelector('.turn');
    turn.classList.toggle('capture', frame.capture);
    turn.querySelector('.label').textContent =
      f === 0 ? 'Start tile' : f === viewer.frames.length - 1 ? 'End: final scoring' : 'Turn ' + f + ' of ' + turns;
    const list = turn.querySelector('.events');
    list.replaceChildren();
    for (const line of frame.events) {
      const li = document.createElement('li');
      li.textContent = line;
      if (line.startsWith('capture:')) li.className = 'capture';
      list.appendChild(li);
    }
    if (v === current) controls();
    reframe(viewer);
    viewer.el.setAttribute('data-frame', String(f));
  }

  function controls() {
    const viewer = viewers[current];
    const f = viewer.frame;
    const last = viewer.frames.length - 1;
    slider.max = String(last);
    slider.value = String(f);
    position.textContent = (f === 0 ? 'start' : f === last ? 'end' : 'turn ' + f) +
      ' · ' + viewer.frames[f].tiles + (viewer.frames[f].tiles === 1 ? ' tile' : ' tiles');
    button('first').disabled = f === 0;
    button('prev').disabled = f === 0;
    button('next').disabled = f === last;
    button('last').disabled = f === last;
    button('prev-capture').disabled = capture(viewer, f, -1) === null;
    button('next-capture').disabled = capture(viewer, f, 1) === null;
  }

  function capture(viewer, f, dir) {
    for (let i = f + dir; i >= 0 && i < viewer.frames.length; i += dir) {
      if (viewer.frames[i].capture) return i;
    }
    return null;
  }

  function step(what) {
    const viewer = viewers[current];
    const f = viewer.frame;
    const target = {
      first: 0,
      prev: f - 1,
      next: f + 1,
      last: viewer.frames.length - 1,
      'prev-capture': capture(viewer, f, -1),
      'next-capture': capture(viewer, f, 1),
    }[what];
    if (target !== null && target !== undefined) show(current, target);
  }

  // Show viewer v: its variant's tab and picker, its game.
  function select(v) {
    current = v;
    const viewer = viewers[v];
    viewers.forEach((other, i) => { other.el.hidden = i !== v; });
    split(viewer);
    tabs.forEach((tab) =>
      tab.setAttribute('aria-selected', String(tab.getAttribute('data-variant') === viewer.variant)));
    pickers.forEach(function (picker) {
      const mine = picker.getAttribute('data-variant') === viewer.variant;
      picker.closest('label').hidden = !mine;
      if (mine) picker.value = viewer.game;
    });
    controls();
  }

  // The viewer of a variant's game; `game` null: the one last shown.
  const last = {};
  function viewerOf(variant, game) {
    if (game === null && last[variant] !== undefined) return last[variant];
    const found = viewers.findIndex((viewer) =>
      viewer.variant === variant && (game === null || viewer.game === game));
    return found < 0 ? null : found;
  }

  function pick(variant, game) {
    const v = viewerOf(variant, game);
    if (v === null) return;
    last[variant] = v;
    select(v);
  }

  section.querySelectorAll('[data-step]').forEach(function (b) {
    b.addEventListener('click', () => step(b.getAttribute('data-step')));
  });
  tabs.forEach((tab) =>
    tab.addEventListener('click', () => pick(tab.getAttribute('data-variant'), null)));
  pickers.forEach((picker) =>
    picker.addEventListener('change', () => pick(picker.getAttribute('data-variant'), picker.value)));
  slider.addEventListener('input', () => show(current, Number(slider.value)));
  const fullSize = /** @type {HTMLInputElement} */ (section.querySelector('.full-size'));
  fullSize.addEventListener('change', () => {
    section.classList.toggle('full', fullSize.checked);
    reframe(viewers[current]);
  });
  window.addEventListener('resize', () => reframe(viewers[current]));
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider || e.target instanceof HTMLSelectElement) return;
    const keys = { ArrowRight: 'next', ArrowLeft: 'prev' };
    // Home and End scroll the page, unless the viewer has the focus.
    if (section.contains(document.activeElement)) {
      keys.Home = 'first';
      keys.End = 'last';
    }
    if (keys[e.key]) {
      step(keys[e.key]);
      e.preventDefault();
    }
  });

  viewers.forEach((viewer, i) => show(i, 0));
  select(0);
})();
