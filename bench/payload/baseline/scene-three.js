// The same hero scene as site/static/scene.js, written with three.js: a faceted gem
// (icosahedron split once: 80 flat facets) ringed by 48 points, the same rotation, the
// same pause-off-screen, reduced-motion and slow-device behaviour. Built by `npm run build`.
import {
  AmbientLight, BufferGeometry, Color, DirectionalLight, Float32BufferAttribute, IcosahedronGeometry, Mesh,
  MeshLambertMaterial, PerspectiveCamera, Points, PointsMaterial, Scene, WebGLRenderer,
} from "three";

const host = document.querySelector("[data-scene]");
if (host && !host.querySelector("canvas")) start(host);

function start(host) {
  let renderer;
  try {
    renderer = new WebGLRenderer({ antialias: (window.devicePixelRatio || 1) < 2, alpha: true });
  } catch (error) {
    return;
  }
  const ratio = Math.min(devicePixelRatio || 1, 2);
  renderer.setPixelRatio(ratio);
  host.appendChild(renderer.domElement);

  const color = new Color(getComputedStyle(host).color);
  const scene = new Scene();
  const camera = new PerspectiveCamera(2 * 0.3 * 180 / Math.PI, 1, 0.1, 20);
  camera.position.z = 4.2;
  const gem = new Mesh(new IcosahedronGeometry(1, 1), new MeshLambertMaterial({ color, flatShading: true }));
  const ring = [];
  for (let i = 0; i < 48; i++) {
    const angle = i / 48 * 2 * Math.PI;
    ring.push(1.7 * Math.cos(angle), 0.12 * Math.sin(3 * angle), 1.7 * Math.sin(angle));
  }
  const points = new Points(new BufferGeometry().setAttribute("position", new Float32BufferAttribute(ring, 3)),
                            new PointsMaterial({ color, size: 4 * ratio, sizeAttenuation: false }));
  const sun = new DirectionalLight(0xffffff, 2);
  sun.position.set(0.42, 0.74, 0.53);
  scene.add(gem, points, sun, new AmbientLight(0xffffff, 1.4));

  function draw(seconds) {
    const w = renderer.domElement.clientWidth, h = renderer.domElement.clientHeight;
    if (!w || !h) return;
    if (renderer.domElement.width !== Math.round(w * ratio)) {
      renderer.setSize(w, h, false);
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
    }
    gem.rotation.set(0.35 + 0.15 * Math.sin(seconds * 0.4), seconds * 0.35, 0);
    points.rotation.set(0.3, -seconds * 0.2, 0);
    renderer.render(scene, camera);
  }

  let frame = 0, clock = 0, last = 0, frames = 0, late = 0, since = 0, visible = true;
  const still = matchMedia("(prefers-reduced-motion: reduce)");
  const state = (name) => host.setAttribute("data-state", name);
  function tick(now) {
    if (last && now - last < 30) { frame = requestAnimationFrame(tick); return; }
    frame = 0;
    const step = last ? now - last : 16;
    last = now;
    clock += Math.min(step, 100);
    draw(clock / 1000);
    if (now - since > 5000) { since = now; late = 0; }
    if (++frames > 2 && step > 50 && (late += step) > 600) return state("still");
    if (visible && !still.matches) frame = requestAnimationFrame(tick);
    else state(still.matches ? "still" : "paused");
  }
  function run() {
    if (!frame && host.getAttribute("data-state") !== "still") {
      last = 0;
      state("running");
      frame = requestAnimationFrame(tick);
    }
  }
  function pause() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    if (host.getAttribute("data-state") === "running") state("paused");
  }
  document.addEventListener("visibilitychange", () => { last = 0; });
  new IntersectionObserver((entries) => {
    visible = entries[entries.length - 1].isIntersecting;
    if (visible) run(); else pause();
  }).observe(host);
  still.addEventListener("change", () => { if (still.matches) pause(); });
  run();
}
