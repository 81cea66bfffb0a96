#!/usr/bin/env node
// A hegemon bot in JavaScript: a gRPC server for protos/hegemon/v1/bot.proto.
//
//   node bot.js --address unix:/tmp/somewhere/bot.sock
//   HEGEMON_BOT_ADDRESS=127.0.0.1:50051 node bot.js
//
// It loads the .proto at run time (no generated code): ../../protos/hegemon/v1/bot.proto
// relative to this file, or the file named by HEGEMON_PROTO. It also serves the standard
// health service (grpc.health.v1.Health/Check answers SERVING), as every bot must.
//
// Strategy, from the view only: claim the first free territory offered; put every army
// on the own territory with the most enemy neighbours; trade a set only when forced;
// attack whenever a territory has more armies than a bordering enemy one (with the
// most dice); defend with the most dice; move in as many armies as allowed; never
// fortify.
//
// Notes: it says why it placed and attacked where it did (DecideReply.notes: a text and
// marks on the map, shown to the bot's owner in the replay and to nobody else), and it asks
// for the legal answers (HelloReply.legal_answers) to trade only sets the referee accepts.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const NAME = 'node-sample';
const VERSION = require('./package.json').version;
const PROTOCOL_VERSION = 1;

const LOADER_OPTIONS = {
  keepCase: true, // field names exactly as in the .proto (game_id, pass_, ...)
  longs: Number, // int64 fields (time banks) as plain numbers
  enums: String, // enum values by name ("DECISION_KIND_CLAIM")
  defaults: true, // fields left at their default are present (0, "", [], false)
  oneofs: true, // a oneof's name holds the name of the field set (action.kind)
};

function usage(message) {
  if (message) process.stderr.write(`bot.js: ${message}\n`);
  process.stderr.write('usage: node bot.js --address ADDR   (or set HEGEMON_BOT_ADDRESS)\n' +
    '  ADDR: a gRPC address, e.g. unix:/tmp/hegemon/bot.sock or 127.0.0.1:50051\n' +
    '  HEGEMON_PROTO: path of bot.proto (default: ../../protos/hegemon/v1/bot.proto)\n');
  process.exit(message ? 2 : 0);
}

function parseArgs(argv) {
  let address = process.env.HEGEMON_BOT_ADDRESS || '';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') usage();
    else if (arg === '--address') {
      if (i + 1 >= argv.length) usage('--address needs a value');
      address = argv[++i];
    } else if (arg.startsWith('--address=')) address = arg.slice('--address='.length);
    else usage(`unknown argument ${arg}`);
  }
  if (!address) usage('no address: give --address ADDR or set HEGEMON_BOT_ADDRESS');
  return { address };
}

function loadProtos() {
  const botProto = process.env.HEGEMON_PROTO ||
    path.resolve(__dirname, '..', '..', 'protos', 'hegemon', 'v1', 'bot.proto');
  const healthProto = path.resolve(__dirname, 'health.proto');
  const load = (file) => {
    try {
      return grpc.loadPackageDefinition(protoLoader.loadSync(file, LOADER_OPTIONS));
    } catch (err) {
      process.stderr.write(`bot.js: cannot load ${file}: ${err.message}\n`);
      process.exit(1);
    }
  };
  const bot = load(botProto);
  const health = load(healthProto);
  return { Bot: bot.hegemon.v1.Bot, Health: health.grpc.health.v1.Health };
}

// ------------------------------------------------------------------ the strategy
// Everything below decides from one DecideRequest and the game's StartGame board.

// Risiko! Master (card_values "master", seed 003) knows only three equal figures, three
// different ones, and a wild card with two equal figures.
function isSet(insignia, master = false) {
  const plain = insignia.filter((x) => x !== 'INSIGNIA_WILD');
  const distinct = new Set(plain).size;
  if (master) return plain.length === 3 ? distinct === 1 || distinct === 3 : plain.length === 2 && distinct === 1;
  return plain.length < 3 || distinct === 1 || distinct === 3;
}

function findSet(hand, cards, master = false) {
  for (let a = 0; a < hand.length; a++) {
    for (let b = a + 1; b < hand.length; b++) {
      for (let c = b + 1; c < hand.length; c++) {
        const ids = [hand[a], hand[b], hand[c]];
        if (isSet(ids.map((id) => cards[id].insignia), master)) return ids;
      }
    }
  }
  return null;
}

// Risiko! Master Expert: never fewer dice than the defender will roll, and no one's last
// territory before the round the rule set names.
function mayAttack(options, view, target, dice) {
  const armies = view.armies[target];
  if (options.attacker_dice === 'at_least_defender') {
    const most = Number(options.defender_most_dice || 2);
    if (dice < Math.min(most, armies)) return false;
  }
  const from = Number(options.eliminate_from_round || 0);
  if (from > 1 && view.round < from) {
    const holder = view.owner[target];
    if (view.owner.filter((o) => o === holder).length === 1) return false;
  }
  return true;
}

// The notes of one decision: decide() fills them, the reply carries them (DecideReply.notes).
function newNotes() {
  const notes = { text: '', marks: [] };
  return {
    notes,
    note(text) { notes.text = notes.text ? `${notes.text} | ${text}` : String(text); },
    mark(territory, options = {}) {
      const m = { territory, label: options.label || '', colour: options.colour || '' };
      if (options.to !== undefined) m.to = options.to;
      notes.marks.push(m);
    },
  };
}

function decide(game, request, jot = newNotes()) {
  const view = request.view;
  const d = request.decision;
  const me = view.seat;
  const { owner, armies, seats } = view;
  const territories = game.board.territories;
  const myTeam = seats[me] ? seats[me].team : -1;
  const isEnemy = (t) => {
    const o = owner[t];
    if (o === me || o < 0) return false;
    return !(myTeam >= 0 && seats[o] && seats[o].team === myTeam);
  };
  const own = [];
  for (let t = 0; t < owner.length; t++) if (owner[t] === me) own.push(t);
  // Team game: where this seat has armies but does not control the territory (a team-mate
  // controls it, or nobody on a tie), its armies are listed in view.stacks.
  const shared = (view.stacks || []).filter((s) => s.seat === me).map((s) => s.territory);
  const pass = { pass_: {} };

  switch (d.kind) {
    case 'DECISION_KIND_CLAIM':
      return { claim: { territory: d.territories.length ? d.territories[0] : owner.indexOf(-1) } };

    case 'DECISION_KIND_PLACE': {
      const mine = own.length ? own : shared;
      let best = mine[0];
      let bestCount = -1;
      for (const t of mine) {
        const count = territories[t].neighbours.filter(isEnemy).length;
        if (count > bestCount) { best = t; bestCount = count; }
      }
      jot.note(`${d.armies} on ${territories[best].name}: ${bestCount} enemy neighbours`);
      jot.mark(best, { label: `+${d.armies}`, colour: 'green' });
      return { place: { placements: [{ territory: best, armies: d.armies }] } };
    }

    case 'DECISION_KIND_TRADE': {
      if (!d.forced) return pass;
      // the referee's own list of sets (asked for in Hello), else the rule as bot.proto says
      const listed = request.legal && request.legal.sets.length ? request.legal.sets[0].cards : null;
      const set = listed || findSet(view.hand, game.board.cards, game.options.card_values === 'master');
      return set ? { trade: { cards: set } } : pass;
    }

    case 'DECISION_KIND_ATTACK': {
      let fallback = null;
      for (const t of own) {
        if (armies[t] < 2) continue;
        for (const n of territories[t].neighbours) {
          if (!isEnemy(n) || !mayAttack(game.options, view, n, Math.min(3, armies[t] - 1))) continue;
          const attack = { attack: { source: t, target: n, dice: Math.min(3, armies[t] - 1) } };
          if (armies[t] > armies[n]) {
            jot.note(`${territories[t].name} (${armies[t]}) outnumbers ${territories[n].name} (${armies[n]})`);
            jot.mark(t, { to: n, label: `${armies[t]} vs ${armies[n]}`, colour: 'red' });
            return attack;
          }
          if (!fallback) fallback = attack;
        }
      }
      return d.forced && fallback ? fallback : pass;
    }

    case 'DECISION_KIND_DEFEND':
      return { defend: { dice: d.maximum } };

    case 'DECISION_KIND_OCCUPY':
      return { occupy: { armies: d.maximum } };

    case 'DECISION_KIND_FORTIFY':
      return pass;

    case 'DECISION_KIND_PLACE_NEUTRAL': {
      // Two-player games: armies for the neutral(s) in d.seats; d.maximum (set-up: 1) is
      // the most any one neutral may get. Each neutral's first territory gets its share.
      const placements = [];
      let left = d.armies;
      for (const seat of d.seats) {
        const t = owner.indexOf(seat);
        if (t < 0 || left <= 0) continue;
        const n = d.maximum ? Math.min(d.maximum, left) : left;
        placements.push({ territory: t, armies: n });
        left -= n;
      }
      return { place_neutral: { placements } };
    }

    case 'DECISION_KIND_CAPITAL': {
      // capital-2000: the offered territory with the fewest enemy neighbours (then the most
      // armies): the hardest for an opponent to reach
      const offered = d.territories.length ? d.territories : own;
      let best = offered[0];
      let bestKey = null;
      for (const t of offered) {
        const key = [territories[t].neighbours.filter(isEnemy).length, -armies[t]];
        if (bestKey === null || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
          best = t;
          bestKey = key;
        }
      }
      return { capital: { territory: best } };
    }

    default: // BRIBE, REINFORCE_ALLY, FORTIFY_ALLY, BUILD_CENTRE: decline
      return pass;
  }
}

// ------------------------------------------------------------------ the service
function main() {
  const { address } = parseArgs(process.argv.slice(2));
  const { Bot, Health } = loadProtos();
  const games = new Map(); // game_id -> { seat, board }

  const fail = (callback, code, details) => callback({ code, details });

  // One decision: { reply } or, refused, { refused: why, code: a gRPC status }.
  const answer = (r) => {
    const game = games.get(r.game_id);
    if (!game) return { refused: `unknown game ${r.game_id}`, code: grpc.status.FAILED_PRECONDITION };
    if (r.error) process.stderr.write(`${NAME}: game ${r.game_id}: refused: ${r.error}\n`);
    let action;
    const jot = newNotes();
    try {
      action = decide(game, r, jot);
    } catch (err) {
      return { refused: `bot error: ${err && err.stack}`, code: grpc.status.INTERNAL };
    }
    const { notes } = jot;
    const noted = notes.text || notes.marks.length ? { notes } : {};
    return { reply: { game_id: r.game_id, action, ...noted } };
  };

  const bot = {
    Hello(call, callback) {
      callback(null, {
        name: NAME, version: VERSION, protocol_version: PROTOCOL_VERSION,
        rule_sets: [], author: 'hegemon sample bots',
        // This bot reads the full view every time: it does not opt in to view deltas.
        view_deltas: false,
        // It asks for the legal answers of each decision (DecideRequest.legal).
        legal_answers: true,
        // It answers on one stream a game (DecideStream) rather than a Decide call each.
        decide_stream: true,
      });
    },
    StartGame(call, callback) {
      const r = call.request;
      if (!r.board || !r.board.territories.length) {
        return fail(callback, grpc.status.INVALID_ARGUMENT, 'StartGame without a map');
      }
      const options = (r.rules && r.rules.options) || {};
      games.set(r.game_id, { seat: r.seat, board: r.board, options });
      callback(null, {});
    },
    Decide(call, callback) {
      const out = answer(call.request);
      if (out.refused) return fail(callback, out.code, out.refused);
      callback(null, out.reply);
    },
    // The same decisions on one stream a game (HelloReply.decide_stream): each request is
    // answered in order with its number; a refused one says why (refused) and the stream
    // goes on.
    DecideStream(call) {
      call.on('data', (r) => {
        const out = answer(r);
        call.write(out.refused
          ? { number: r.number, refused: out.refused.slice(0, 1000), refused_code: out.code }
          : { ...out.reply, number: r.number });
      });
      call.on('end', () => call.end());
      call.on('error', () => {}); // the referee cancelled the stream: the game is over
    },
    EndGame(call, callback) {
      games.delete(call.request.game_id);
      callback(null, {});
    },
  };

  const health = {
    Check(call, callback) {
      const service = call.request.service;
      if (service === '' || service === 'hegemon.v1.Bot') return callback(null, { status: 'SERVING' });
      fail(callback, grpc.status.NOT_FOUND, `unknown service ${service}`);
    },
  };

  const server = new grpc.Server();
  server.addService(Bot.service, bot);
  server.addService(Health.service, health);
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) {
      process.stderr.write(`${NAME}: cannot listen on ${address}: ${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${NAME} ${VERSION}: listening on ${address}\n`);
  });

  const stop = () => {
    server.tryShutdown(() => process.exit(0));
    setTimeout(() => { server.forceShutdown(); process.exit(0); }, 1000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (require.main === module) main();

module.exports = { decide, findSet, isSet };
