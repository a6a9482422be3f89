/* The home page's hero: a faceted gem ringed by small points, in plain WebGL (no library).
   site.js loads it only when the device can afford it. It draws nothing into the page's
   text, pauses while off screen, and holds a still frame on devices too slow to animate.
   The host element's data-state says what it is doing: running, paused or still. */
(function () {
  var host = document.querySelector("[data-scene]");
  if (!host || host.querySelector("canvas")) return;
  var canvas = document.createElement("canvas");
  // Multisampling is the costliest part on software rasterisers; dense screens need none.
  var gl = canvas.getContext("webgl", { antialias: (window.devicePixelRatio || 1) < 2 });
  if (!gl) return;

  // Icosahedron, each face split in four and pushed onto the unit sphere: 80 flat facets.
  var t = (1 + Math.sqrt(5)) / 2;
  var corners = [[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t],
                 [0, -1, -t], [0, 1, -t], [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]];
  var faces = [0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6,
               7, 1, 8, 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7,
               9, 8, 1];
  var data = [];

  function unit(v) {
    var l = Math.hypot(v[0], v[1], v[2]);
    return [v[0] / l, v[1] / l, v[2] / l];
  }
  function mid(a, b) { return unit([a[0] + b[0], a[1] + b[1], a[2] + b[2]]); }
  function facet(a, b, c) {
    var u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    var n = unit([u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]);
    [a, b, c].forEach(function (p) { data.push(p[0], p[1], p[2], n[0], n[1], n[2]); });
  }
  for (var i = 0; i < faces.length; i += 3) {
    var a = unit(corners[faces[i]]), b = unit(corners[faces[i + 1]]), c = unit(corners[faces[i + 2]]);
    var ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
    facet(a, ab, ca); facet(ab, b, bc); facet(ca, bc, c); facet(ab, bc, ca);
  }
  var gemVertices = data.length / 6, points = 48;
  for (i = 0; i < points; i++) {
    var angle = i / points * 2 * Math.PI;
    data.push(1.7 * Math.cos(angle), 0.12 * Math.sin(3 * angle), 1.7 * Math.sin(angle), 0, 0, 0);
  }

  function shader(type, source) {
    var s = gl.createShader(type);
    gl.shaderSource(s, source);
    gl.compileShader(s);
    return s;
  }
  var program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER,
    "attribute vec3 p;attribute vec3 n;uniform mat4 P,M;uniform float size;varying float light;" +
    "void main(){light=.45+.55*max(dot((M*vec4(n,0.)).xyz,vec3(.42,.74,.53)),0.);" +
    "gl_Position=P*(M*vec4(p,1.)+vec4(0.,0.,-4.2,0.));gl_PointSize=size;}"));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER,
    "precision mediump float;uniform vec3 color;uniform float lit;varying float light;" +
    "void main(){if(lit<.5&&length(gl_PointCoord-.5)>.5)discard;" +
    "gl_FragColor=vec4(color*mix(1.,light,lit),1.);}"));
  gl.linkProgram(program);
  // With KHR_parallel_shader_compile the shaders compile elsewhere while this thread stays
  // free; asking for LINK_STATUS straight away would block it until they are done.
  var parallel = gl.getExtension("KHR_parallel_shader_compile"), u = {}, rgb;
  function wait() {
    if (parallel && !gl.getProgramParameter(program, parallel.COMPLETION_STATUS_KHR)) return requestAnimationFrame(wait);
    if (gl.getProgramParameter(program, gl.LINK_STATUS)) begin();
  }

  function begin() {
    gl.useProgram(program);
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(data), gl.STATIC_DRAW);
    ["p", "n"].forEach(function (name, k) {
      var at = gl.getAttribLocation(program, name);
      gl.enableVertexAttribArray(at);
      gl.vertexAttribPointer(at, 3, gl.FLOAT, false, 24, 12 * k);
    });
    ["P", "M", "size", "color", "lit"].forEach(function (name) { u[name] = gl.getUniformLocation(program, name); });
    gl.enable(gl.DEPTH_TEST);
    gl.clearColor(0, 0, 0, 0);
    // The accent colour comes from CSS, so the scene follows the light and dark themes.
    rgb = (getComputedStyle(host).color.match(/\d+/g) || [11, 92, 173]).slice(0, 3).map(function (x) { return x / 255; });
    host.appendChild(canvas);
    // A hidden tab gets no frames; the gap before the next one is not a slow frame.
    document.addEventListener("visibilitychange", function () { last = 0; });
    canvas.addEventListener("webglcontextlost", function () { pause(); state("still"); });
    if (window.IntersectionObserver) {
      new IntersectionObserver(function (entries) {
        visible = entries[entries.length - 1].isIntersecting;
        if (visible) run(); else pause();
      }).observe(host);
    }
    if (still.addEventListener) still.addEventListener("change", function () { if (still.matches) pause(); });
    run();
  }

  // Column-major rotation about Y by `a`, then about X by `b`.
  function rotation(a, b) {
    var c = Math.cos(a), s = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b);
    return [c, sb * s, -cb * s, 0, 0, cb, sb, 0, s, -sb * c, cb * c, 0, 0, 0, 0, 1];
  }

  function draw(seconds) {
    var ratio = Math.min(devicePixelRatio || 1, 2);
    var w = Math.round(canvas.clientWidth * ratio), h = Math.round(canvas.clientHeight * ratio);
    if (!w || !h) return;
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    var f = 1 / Math.tan(0.3), near = 0.1, far = 20;
    gl.uniformMatrix4fv(u.P, false, [f * h / w, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1,
                                     0, 0, 2 * far * near / (near - far), 0]);
    gl.uniform3fv(u.color, rgb);
    gl.uniform1f(u.lit, 1);
    gl.uniformMatrix4fv(u.M, false, rotation(seconds * 0.35, 0.35 + 0.15 * Math.sin(seconds * 0.4)));
    gl.drawArrays(gl.TRIANGLES, 0, gemVertices);
    gl.uniform1f(u.lit, 0);
    gl.uniform1f(u.size, 4 * ratio);
    gl.uniformMatrix4fv(u.M, false, rotation(-seconds * 0.2, 0.3));
    gl.drawArrays(gl.POINTS, gemVertices, points);
  }

  var frame = 0, clock = 0, last = 0, frames = 0, late = 0, since = 0, visible = true;
  var still = matchMedia("(prefers-reduced-motion: reduce)");

  function state(name) { host.setAttribute("data-state", name); }
  function tick(now) {
    // 30 frames a second are plenty for a slow turn, at half the cost of 60.
    if (last && now - last < 30) { frame = requestAnimationFrame(tick); return; }
    frame = 0;
    var step = last ? now - last : 16;
    last = now;
    clock += Math.min(step, 100);
    draw(clock / 1000);
    // A device whose frames keep arriving late (over 50 ms; more than 600 ms of such
    // frames within 5 s) holds this frame, still, instead of spending its main thread on
    // decoration. The first two frames pay for start-up and do not count.
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

  wait();
})();
