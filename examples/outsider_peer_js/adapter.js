'use strict';
// The thin adapter between bottleimp-protocol/3 (spec/protocol.md) and engine.js: it checks the
// shape of each request, calls the engine, maps the engine's error codes to rule IDs and its
// zones to the protocol's. Usage: node adapter.js [--bug NAME]... [--first-setter none]
// (or OUTSIDER_BUGS=a,b). The setups are simultaneous here, so which seat gives its setup first
// is a convention: the protocol's (the dealer's left), or with --first-setter none, none.
const readline = require('readline');
const engine = require('./engine');

const PROTOCOL = 'bottleimp-protocol/3';
const CAPABILITIES = {
  players: [3, 4], editions: ['classic', 'matagot-2024'], bottles: [1], teams: false,
  game_ends: ['target_score'], setups_any_order: true,
};
const RULES = {
  BAD_PLAYERS: 'CONFIG-PLAYERS', BAD_EDITION: 'CONFIG-EDITION', BAD_BOTTLES: 'CONFIG-BOTTLES',
  BAD_TEAMS: 'CONFIG-TEAMS', BAD_GAME_END: 'CONFIG-GAME-END', BAD_DECK: 'CONFIG-DECK',
  BAD_DEAL: 'DEAL-COUNTS', NOT_SETTING_UP: 'PHASE', NO_SEAT: 'SETUP-ORDER',
  ALREADY_GIVEN: 'SETUP-STEPS', WRONG_STEP: 'SETUP-STEPS', NOT_DEALT: 'SETUP-FROM-DEALT',
  NOT_PLAYING: 'PHASE', NOT_YOUR_TURN: 'TURN-ORDER', NOT_HELD: 'CARD-HELD',
  MUST_FOLLOW: 'FOLLOW-SUIT', NOT_OVER: 'ROUND-END',
};

function bugsFromArguments(argv, env) {
  const names = (env.OUTSIDER_BUGS || '').split(',').filter(Boolean);
  argv.forEach((arg, i) => { if (arg === '--bug') names.push(argv[i + 1]); });
  for (const name of names) {
    if (!(name in engine.BUGS)) throw new Error(`unknown bug ${name}: ${Object.keys(engine.BUGS)}`);
  }
  return new Set(names);
}

class Refusal extends Error {
  constructor(rule, message) { super(message); this.rule = rule; }
}
const refuse = (rule, message) => { throw new Refusal(rule, message); };

// --- the shape of requests (every mistake here is PROTOCOL) -------------------------------------
const isCard = (v) => typeof v === 'number';
const isSeat = (v) => Number.isInteger(v);
const isCards = (v) => Array.isArray(v) && v.every(isCard);
const orNull = (check) => (v) => v === null || check(v);
const isDeck = (v) => Array.isArray(v) && v.every((c) => Array.isArray(c) && c.length === 3 &&
  isCard(c[0]) && typeof c[1] === 'string' && Number.isInteger(c[2]));
const isConfig = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) &&
  checkKeys(v, { players: isSeat }, {
    edition: (e) => typeof e === 'string', bottles: isSeat, rounds: orNull(isSeat),
    target_score: orNull(isSeat), deck: orNull(isDeck),
    teams: orNull((t) => Array.isArray(t) && t.every((team) => Array.isArray(team) && team.every(isSeat))),
  });

function checkKeys(object, required, optional) {
  for (const [key, check] of Object.entries(required)) {
    if (!(key in object) || !check(object[key])) return false;
  }
  return Object.keys(object).every((key) => key.startsWith('_') || key in required ||
    (key in optional && optional[key](object[key])));
}

const SHAPES = {
  hello: [{ protocol: (v) => typeof v === 'string' }, {}],
  new_round: [{ config: isConfig, hands: (v) => Array.isArray(v) && v.every(isCards) },
    { dealer: isSeat, face_up: orNull((v) => Array.isArray(v) && v.every(isCards)), deck: isDeck, round: isSeat }],
  setup: [{ seat: isSeat, discard: isCards },
    { left: isCard, right: isCard, to_face_up: isCard, to_hidden: isCard }],
  legal_plays: [{}, {}],
  play: [{ seat: isSeat, card: isCard }, {}],
  scores: [{}, {}],
  end_round: [{}, {}],
  quit: [{}, {}],
  case: [{ kind: (v) => typeof v === 'string', config: isConfig, input: (v) => typeof v === 'object' && v !== null }, {}],
};

// --- the requests -------------------------------------------------------------------------------
class Adapter {
  constructor(bugs, namesFirstSetter) {
    this.bugs = bugs;
    this.namesFirstSetter = namesFirstSetter;
    this.game = null;
    this.nextDealer = null;
  }

  answer(request) {
    const shape = SHAPES[request.op];
    if (!shape) refuse('PROTOCOL', `unknown op ${JSON.stringify(request.op)}`);
    const { op, ...rest } = request;
    if (!checkKeys(rest, ...shape)) refuse('PROTOCOL', `${op}: a key is missing, mistyped or unknown`);
    if (['setup', 'legal_plays', 'play', 'scores', 'end_round'].includes(op) && !this.round) {
      refuse('PROTOCOL', `${op} before any new_round`);
    }
    return this[op](request);
  }

  hello({ protocol }) {
    if (protocol !== PROTOCOL) refuse('PROTOCOL', `only ${PROTOCOL} is spoken`);
    return { protocol: PROTOCOL, capabilities: CAPABILITIES };
  }

  checkVariant(config, decks) {
    const fault = engine.checkConfig(config) ||
      decks.filter(Boolean).map((d) => engine.checkDeck(d, config.players)).find(Boolean);
    if (fault) refuse(RULES[fault[0]], fault[1]);
  }

  supported(config) {
    return CAPABILITIES.players.includes(config.players) && (config.bottles || 1) === 1 &&
      !config.teams && !config.deck;
  }

  new_round({ config, dealer, hands, face_up: faceUp = null, deck = null, round = 0 }) {
    this.checkVariant(config, [config.deck, deck]);
    if (dealer === undefined && (round === 0 || this.nextDealer === null)) refuse('PROTOCOL', 'no dealer');
    if (dealer !== undefined && !(dealer >= 0 && dealer < config.players)) refuse('PROTOCOL', `no seat ${dealer}`);
    if (!this.supported(config) || config.target_score == null) refuse('UNSUPPORTED', 'not a variant played here');
    if (faceUp !== null) refuse('DEAL-COUNTS', 'no face-up cards with 3 or 4 players');
    const game = round === 0 || !this.game
      ? new engine.Game(config.edition || 'classic', config.players, config.target_score, this.bugs) : this.game;
    const seat = dealer === undefined ? this.nextDealer : dealer;
    this.round = this.call(() => game.startRound(seat, hands));
    this.game = game;
    this.nextDealer = null;
    return { dealer: seat, to_act: this.namesFirstSetter ? this.round.toAct : null };
  }

  setup({ seat, ...given }) {
    const resolved = this.call(() => this.round.giveSetup(seat, given));
    if (!resolved) return { to_act: this.round.toAct };
    return { to_act: this.round.toAct, hands: resolved.hands, face_up: null, devils_trick: resolved.devilsTrick };
  }

  legal_plays() {
    const cards = this.call(() => this.round.legalPlays());
    return { seat: this.round.toAct, cards: engine.sorted(cards) };
  }

  play({ seat, card }) {
    const before = this.round.bottle;
    const result = this.call(() => this.round.play(seat, card));
    if (!result) return { to_act: this.round.toAct };
    return { to_act: this.round.toAct, trick: this.trickAnswer(result, before).trick };
  }

  /** The engine's trick result in the protocol's words (and the cases' zones). */
  trickAnswer(result, before) {
    return {
      trick: { winner: result.winner, card: result.card, bottle: result.bought ? 0 : null, bottles: [result.bottle] },
      returned: result.bought && before.price !== 19 ? { seat: before.owner, card: before.price } : null,
    };
  }

  scores() { return { scores: this.call(() => this.round.scores()) }; }

  end_round() {
    const { over, nextDealer } = this.call(() => this.game.endRound());
    this.nextDealer = nextDealer;
    return { game_over: over, dealer: nextDealer };
  }

  quit() { return {}; }

  case({ kind, config, input }) {
    this.checkVariant(config, [config.deck]);
    if (!this.supported(config) || !(kind in CASES)) refuse('UNSUPPORTED', `no ${kind} case for this variant`);
    const deck = engine.loadDeck(config.edition || 'classic', this.bugs);
    return { output: CASES[kind](config, deck, input, this.bugs) };
  }

  /** Runs an engine call, turning its errors into refusals with rule IDs. */
  call(action) {
    try {
      return action();
    } catch (error) {
      if (error instanceof engine.EngineError) refuse(RULES[error.code], error.message);
      throw error;
    }
  }
}

// --- the conformance cases, through the same engine --------------------------------------------
const CASES = {
  trick(config, deck, { bottles, trick }) {
    if (bottles.length !== 1) refuse('UNSUPPORTED', 'one bottle only');
    const result = engine.resolveTrick(trick, bottles[0]);
    const cards = trick.map(([, c]) => c).filter((c) => !(result.bought && c === result.card));
    const { trick: answer, returned } = Adapter.prototype.trickAnswer(result, bottles[0]);
    return {
      winner: answer.winner, winning_card: answer.card, bottle: answer.bottle, bottles: answer.bottles,
      winner_takes: engine.sorted(cards), returned_price_card: returned,
    };
  },

  legal_plays(config, deck, { seat, hand, trick, attempts }) {
    const round = new engine.Round(config.players, deck, 0, config.players === 3 ? [[], [], []] : [[], [], [], []], new Set());
    Object.assign(round, { phase: 'play', toAct: seat, trick });
    round.hands[seat] = engine.sorted(hand);
    const legal = engine.sorted(round.legalPlays());
    const output = { legal };
    if (attempts) {
      output.attempts = attempts.map((card) => {
        if (!hand.includes(card)) return 'CARD-HELD';
        return legal.includes(card) ? null : 'FOLLOW-SUIT';
      });
    }
    return output;
  },

  scoring(config, deck, { captured, bottles, devils_trick: devilsTrick }, bugs) {
    const round = new engine.Round(config.players, deck, 0, captured.map(() => []), bugs);
    // The engine keeps the last price card in its buyer's pile: put it there.
    const piles = captured.map((pile, seat) => (seat === bottles[0].owner && bottles[0].price !== 19
      ? [...pile, bottles[0].price] : [...pile]));
    Object.assign(round, { phase: 'over', piles, bottle: bottles[0], devilsTrick });
    return { scores: round.scores() };
  },

  setup(config, deck, { dealer, hands, setup }, bugs) {
    const game = new engine.Game(config.edition || 'classic', config.players, 1, bugs);
    try {
      const round = game.startRound(dealer, hands);
      let resolved = null;
      for (const seat of round.seatsFrom(round.left(dealer))) resolved = round.giveSetup(seat, setup[seat]);
      return { hands: resolved.hands, face_up: null, devils_trick: resolved.devilsTrick, leader: round.toAct };
    } catch (error) {
      if (error instanceof engine.EngineError) return { error: RULES[error.code] };
      throw error;
    }
  },
};

// --- the transport ------------------------------------------------------------------------------
function main() {
  const argv = process.argv.slice(2);
  const first = argv.indexOf('--first-setter');
  const adapter = new Adapter(bugsFromArguments(argv, process.env), !(first >= 0 && argv[first + 1] === 'none'));
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    let request = null;
    let reply;
    try {
      request = JSON.parse(line);
      if (request === null || typeof request !== 'object' || Array.isArray(request)) refuse('PROTOCOL', 'not a JSON object');
      reply = { ok: true, ...adapter.answer(request) };
    } catch (error) {
      if (error instanceof SyntaxError) reply = { ok: false, error: 'not JSON', rule: 'PROTOCOL' };
      else if (error instanceof Refusal) reply = { ok: false, error: error.message, rule: error.rule };
      else throw error;
    }
    const quitting = reply.ok && request.op === 'quit';
    process.stdout.write(`${JSON.stringify(reply)}\n`, () => { if (quitting) process.exit(0); });
  });
}

main();
