// The read-only console: reads /api/overview every 2 seconds and draws it. Text goes in with
// textContent only, so names from clients can never become markup.
(function () {
  'use strict';
  let selected = null;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function bytes(n) {
    if (n === undefined || n === null || n < 0) return '—';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let i = 0;
    while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
    return (i === 0 ? n : n.toFixed(1)) + ' ' + units[i];
  }

  function age(ms) {
    if (ms === undefined || ms === null) return '—';
    if (ms < 1000) return ms + ' ms';
    const s = Math.round(ms / 1000);
    if (s < 120) return s + ' s';
    if (s < 7200) return Math.round(s / 60) + ' min';
    return Math.round(s / 3600) + ' h';
  }

  function row(tbody, cells, attrs) {
    const tr = document.createElement('tr');
    for (const [k, v] of Object.entries(attrs || {})) tr.setAttribute(k, v);
    for (const c of cells) {
      const numeric = typeof c === 'number';
      tr.appendChild(el('td', c, numeric ? 'num' : undefined));
    }
    tbody.appendChild(tr);
    return tr;
  }

  function fill(id, items, toCells, empty) {
    const tbody = document.querySelector('#' + id + ' tbody');
    tbody.replaceChildren();
    if (items.length === 0) {
      const tr = row(tbody, [empty]);
      tr.firstChild.colSpan = document.querySelectorAll('#' + id + ' th').length;
      tr.className = 'muted';
    }
    for (const item of items) toCells(tbody, item);
  }

  function drawNode(n) {
    document.getElementById('node-name').textContent = n.name;
    document.title = 'Partita console: ' + n.name;
    const cards = document.getElementById('node-figures');
    cards.replaceChildren();
    const figures = [
      ['address', n.url], ['uptime', age(n.uptimeMillis)], ['connections', n.connections],
      ['sessions', n.sessions], ['consumers', n.consumers], ['queues', n.queues],
      ['messages held', n.heldMessages], ['store on disk', bytes(n.storeBytes)],
      ['heap', bytes(n.heapUsedBytes) + ' of ' + bytes(n.heapMaxBytes)],
      ['resident payloads', bytes(n.residentBytes) + ' of ' + bytes(n.residentBudgetBytes)],
      ['direct memory', bytes(n.directUsedBytes) + ' of ' + bytes(n.directMaxBytes)],
      ['authentication', n.authentication ? 'on' : 'off']];
    for (const [label, value] of figures) {
      const card = el('div', null, 'card');
      card.appendChild(el('div', label, 'label'));
      card.appendChild(el('div', value, 'value'));
      cards.appendChild(card);
    }
  }

  function drawQueues(queues) {
    if (selected === null || !queues.some(q => q.name === selected)) {
      const partitioned = queues.find(q => q.partitions.length > 1);
      selected = partitioned ? partitioned.name : (queues.length ? queues[0].name : null);
    }
    fill('queues', queues, (tbody, q) => {
      const tr = row(tbody, [q.name, q.mode, q.partitions.length, q.depth, q.inFlight, q.consumers, age(q.oldestAgeMillis),
        q.ratePerSecond, q.enqueued, q.delivered, q.acknowledged, q.deadLettered], {'data-queue': q.name});
      if (q.name === selected) tr.classList.add('selected');
      tr.addEventListener('click', () => { selected = q.name; refresh(); });
    }, 'no queues yet');
    drawPartitions(queues.find(q => q.name === selected));
  }

  function drawPartitions(q) {
    document.getElementById('selected-queue').textContent = q ? q.name : '—';
    const grid = document.getElementById('partitions');
    grid.replaceChildren();
    if (!q) return;
    const deepest = Math.max(1, ...q.partitions.map(p => p.depth));
    for (const p of q.partitions) {
      const tile = el('div', null, 'partition ' + p.state + (p.hot ? ' hot' : ''));
      tile.setAttribute('data-partition', p.partition);
      const title = el('div', 'partition ' + p.partition, 'title');
      if (p.hot) title.appendChild(el('span', 'hot', 'badge'));
      tile.appendChild(title);
      tile.appendChild(el('div', p.depth + ' waiting, ' + p.inFlight + ' in flight', 'depth'));
      const bar = el('div', null, 'bar');
      const fillBar = el('div');
      fillBar.style.width = Math.round(100 * p.depth / deepest) + '%';
      bar.appendChild(fillBar);
      tile.appendChild(bar);
      tile.appendChild(el('div', p.owner ? 'owner: ' + p.owner : 'no owner', 'owner'));
      tile.appendChild(el('div', p.state.toLowerCase() + ', oldest ' + age(p.oldestAgeMillis) + ', '
        + p.ratePerSecond + '/s, ' + p.handoffs + ' handoffs', 'state'));
      grid.appendChild(tile);
    }
  }

  function draw(o) {
    drawNode(o.node);
    drawQueues(o.queues);
    fill('consumers', o.consumers, (t, c) => row(t, [c.consumer, c.queue, c.priority, c.partitions.join(', '),
      c.inFlight, c.credits, c.delivered, c.acknowledged, c.selector]), 'no consumers attached');
    fill('subscriptions', o.subscriptions, (t, s) => row(t, [s.name, s.kind, s.topic, s.queue, s.consumers, s.selector]),
      'no topic subscriptions');
    fill('dlq', o.deadLetterQueues, (t, d) => row(t, [d.name, d.depth, age(d.oldestAgeMillis)], {'data-dlq': d.name}),
      'no dead-letter queue holds anything yet');
    fill('connections', o.connections, (t, c) => row(t, [c.remote, c.user || '', c.clientId || '', c.sessions,
      c.consumers, bytes(c.bytesIn), bytes(c.bytesOut)]), 'no connections');
  }

  function refresh() {
    fetch('api/overview', {cache: 'no-store'})
      .then(r => r.ok ? r.json() : r.text().then(t => { throw new Error(r.status + ' ' + t); }))
      .then(o => {
        draw(o);
        document.getElementById('error').hidden = true;
        document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
      })
      .catch(e => {
        const box = document.getElementById('error');
        box.textContent = 'Cannot read the node: ' + e.message;
        box.hidden = false;
      });
  }

  refresh();
  setInterval(refresh, 2000);
})();
