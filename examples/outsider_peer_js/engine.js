'use strict';
// A small engine of The Bottle Imp for 3 or 4 players, written from spec/rules.toml and
// spec/interpretations.md only. It keeps its own zones, as many engines do: every card of a
// trick goes to the winner's pile (a winning card that buys the bottle too), and a bottle is
// just a price and an owner. It plays to a target score and takes a round's setups in any order.
//
// Planted bugs (a Set of names, see BUGS): each one is a mistake real engines make.

const BUGS = {
  'pass-swap': 'the card passed left goes to the right neighbour and vice versa',
  'fixed-leader': "the seat left of the dealer leads every trick, not the trick's winner",
  'coins-17': 'the classic 17 is worth 4 coins (the Matagot value) instead of 3',
  'penalty-last': "the bottle penalty counts only the Devil's Trick's highest card",
  'led-last': 'the colour to follow is that of the last card played, not the first',
  'target-strict': 'the game ends only once a total is above the target, not at it',
};

// rank:coins per colour, from the decks' tables.
const DECKS = {
  classic: {
    yellow: '1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6',
    blue: '4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6',
    red: '11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6',
  },
  'matagot-2024': {
    red: '1:1 2:1 4:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6',
    blue: '3:1 6:1 8:2 10:2 13:3 17:4 20:4 23:4 27:5 30:5 32:6 35:6',
    green: '11:1 14:1 16:2 21:2 24:3 26:3 29:4 31:4 33:5 34:5 36:6 37:6',
  },
};

class EngineError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

function fail(code, message) { throw new EngineError(code, message); }

/** The edition's deck: a Map from rank to {colour, coins}. */
function loadDeck(edition, bugs) {
  const deck = new Map();
  for (const [colour, text] of Object.entries(DECKS[edition])) {
    for (const item of text.split(' ')) {
      const [rank, coins] = item.split(':').map(Number);
      deck.set(rank, { colour, coins });
    }
  }
  if (bugs.has('coins-17') && edition === 'classic') deck.get(17).coins = 4;
  return deck;
}

const byRank = (a, b) => a - b;
const sorted = (cards) => [...cards].sort(byRank);

/** One round: the hands, the setups, the tricks and the bottle. */
class Round {
  constructor(players, deck, dealer, hands, bugs) {
    this.players = players;
    this.deck = deck;
    this.dealer = dealer;
    this.bugs = bugs;
    this.dealt = hands.map((h) => sorted(h));
    this.hands = this.dealt.map((h) => [...h]);
    this.setups = new Array(players).fill(null);
    this.devilsTrick = [];
    this.piles = hands.map(() => []);
    this.bottle = { price: 19, owner: null };
    this.trick = [];
    this.phase = 'setup';
    this.toAct = this.left(dealer);
  }

  left(seat) { return (seat + 1) % this.players; }
  right(seat) { return (seat + this.players - 1) % this.players; }
  colour(card) { return this.deck.get(card).colour; }
  coins(cards) { return cards.reduce((sum, c) => sum + this.deck.get(c).coins, 0); }

  /** A seat's whole setup: one discard, one card left, one card right (any seat, any order). */
  giveSetup(seat, setup) {
    if (this.phase !== 'setup') fail('NOT_SETTING_UP', 'the setup is over');
    if (!(seat >= 0 && seat < this.players)) fail('NO_SEAT', `there is no seat ${seat}`);
    if (this.setups[seat]) fail('ALREADY_GIVEN', `seat ${seat} has already given its setup`);
    const steps = ['discard', 'left', 'right'];
    const parts = [...setup.discard.map((c) => ['discard', c])];
    for (const key of ['left', 'right', 'to_face_up', 'to_hidden']) {
      if (setup[key] !== undefined) parts.push([key, setup[key]]);
    }
    const remaining = [...this.dealt[seat]];
    parts.forEach(([step, card], i) => {
      if (steps[i] !== step) fail('WRONG_STEP', `seat ${seat}: ${step} is not its step ${i + 1}`);
      const at = remaining.indexOf(card);
      if (at < 0) fail('NOT_DEALT', `seat ${seat} was not dealt ${card} (or gives it twice)`);
      remaining.splice(at, 1);
    });
    if (parts.length < steps.length) fail('WRONG_STEP', `seat ${seat}: its setup is incomplete`);
    this.setups[seat] = { discard: setup.discard[0], left: setup.left, right: setup.right };
    const waiting = this.seatsFrom(this.left(this.dealer)).filter((s) => !this.setups[s]);
    if (waiting.length > 0) { this.toAct = waiting[0]; return null; }
    this.resolveSetups();
    return { hands: this.hands.map(sorted), devilsTrick: sorted(this.devilsTrick) };
  }

  seatsFrom(first) {
    return Array.from({ length: this.players }, (_, i) => (first + i) % this.players);
  }

  resolveSetups() {
    const swap = this.bugs.has('pass-swap');
    this.setups.forEach((given, seat) => {
      for (const card of [given.discard, given.left, given.right]) {
        this.hands[seat].splice(this.hands[seat].indexOf(card), 1);
      }
    });
    this.setups.forEach((given, seat) => {
      this.devilsTrick.push(given.discard);
      this.hands[swap ? this.right(seat) : this.left(seat)].push(given.left);
      this.hands[swap ? this.left(seat) : this.right(seat)].push(given.right);
    });
    this.hands = this.hands.map(sorted);
    this.phase = 'play';
    this.leader = this.left(this.dealer);
    this.toAct = this.leader;
  }

  /** The cards the seat to act may play: the led colour if it holds it, else anything. */
  legalPlays() {
    if (this.phase !== 'play') fail('NOT_PLAYING', 'no trick is being played');
    const hand = this.hands[this.toAct];
    if (this.trick.length === 0) return hand;
    const led = this.colour(this.trick[this.bugs.has('led-last') ? this.trick.length - 1 : 0][1]);
    const following = hand.filter((c) => this.colour(c) === led);
    return following.length > 0 ? following : hand;
  }

  play(seat, card) {
    if (this.phase !== 'play') fail('NOT_PLAYING', 'no trick is being played');
    if (seat !== this.toAct) fail('NOT_YOUR_TURN', `seat ${this.toAct} plays now, not ${seat}`);
    if (!this.hands[seat].includes(card)) fail('NOT_HELD', `seat ${seat} does not hold ${card}`);
    if (!this.legalPlays().includes(card)) {
      fail('MUST_FOLLOW', `seat ${seat} must follow ${this.colour(this.trick[0][1])}`);
    }
    this.hands[seat] = this.hands[seat].filter((c) => c !== card);
    this.trick.push([seat, card]);
    if (this.trick.length < this.players) {
      this.toAct = this.left(seat);
      return null;
    }
    const result = resolveTrick(this.trick, this.bottle);
    this.piles[result.winner].push(...this.trick.map(([, c]) => c));
    this.bottle = result.bottle;
    this.trick = [];
    this.leader = this.bugs.has('fixed-leader') ? this.left(this.dealer) : result.winner;
    if (this.hands.every((h) => h.length === 0)) {
      this.phase = 'over';
      this.toAct = null;
    } else {
      this.toAct = this.leader;
    }
    return result;
  }

  /** Captured coins, or minus the Devil's Trick's coins for the bottle's owner. */
  scores() {
    if (this.phase !== 'over') fail('NOT_OVER', 'cards remain to be played');
    const trick = this.bugs.has('penalty-last') ? sorted(this.devilsTrick).slice(-1) : this.devilsTrick;
    const penalty = this.coins(trick);
    return this.piles.map((pile, seat) => (seat === this.bottle.owner ? -penalty : this.coins(pile)));
  }
}

/** One trick against one bottle: the highest card below the price wins and buys the bottle. */
function resolveTrick(trick, bottle) {
  const below = trick.filter(([, c]) => c < bottle.price);
  const pool = below.length > 0 ? below : trick;
  const [winner, card] = pool.reduce((best, play) => (play[1] > best[1] ? play : best));
  const bought = below.length > 0;
  return {
    winner,
    card,
    bought,
    bottle: bought ? { price: card, owner: winner } : { ...bottle },
  };
}

/** The first thing wrong with a game's options, as an engine code, or null. */
function checkConfig(config) {
  const { players, edition = 'classic', bottles = 1, teams = null } = config;
  if (!(players >= 2 && players <= 6)) return ['BAD_PLAYERS', `${players} players`];
  if (!(edition in DECKS)) return ['BAD_EDITION', `unknown edition ${edition}`];
  if (edition === 'classic' && players > 4 && !config.deck) return ['BAD_EDITION', 'classic is for 2-4'];
  if (!(bottles === 1 || (bottles === 2 && players >= 5))) return ['BAD_BOTTLES', `${bottles} bottles`];
  if (teams !== null) {
    const seats = teams.flat().sort(byRank);
    const partition = seats.length === players && seats.every((s, i) => s === i);
    const shapes = teams.every((t) => t.length === 1 || t.length === 2) && teams.some((t) => t.length === 2);
    if (players < 4 || bottles !== 1 || !partition || !shapes) return ['BAD_TEAMS', 'no partition into pairs and singles'];
  }
  const { rounds = null, target_score: target = null } = config;
  if ((rounds !== null && rounds < 1) || (target !== null && target < 1) || (rounds !== null && target !== null)) {
    return ['BAD_GAME_END', 'rounds or a target score, positive, not both'];
  }
  return null;
}

/** The first thing wrong with a deck of [rank, colour, coins] for this many players, or null. */
function checkDeck(deck, players) {
  const ranks = new Set(deck.map(([rank]) => rank));
  if (ranks.has(19)) return ['BAD_DECK', '19 is the start card, not a card'];
  if (ranks.size !== deck.length) return ['BAD_DECK', 'a rank twice'];
  const each = Math.ceil(deck.length / players);
  const even = players === 2 ? deck.length % 12 === 0 && deck.length > 0
    : (deck.length % players === 0 && each >= 3) || (deck.length % players === players - 1 && each >= 3);
  return even ? null : ['BAD_DECK', `${deck.length} cards cannot be dealt to ${players}`];
}

/** A game: rounds dealt clockwise, played until some total reaches the target score. */
class Game {
  constructor(edition, players, target, bugs) {
    this.players = players;
    this.deck = loadDeck(edition, bugs);
    this.target = target;
    this.bugs = bugs;
    this.totals = new Array(players).fill(0);
    this.round = null;
    this.scored = false;
  }

  /** Deals a round: every card of the deck once, the same number to every seat. */
  startRound(dealer, hands) {
    const seen = new Set();
    for (const hand of hands) {
      for (const card of hand) {
        if (!this.deck.has(card)) fail('BAD_DEAL', `${card} is no card of the deck`);
        if (seen.has(card)) fail('BAD_DEAL', `${card} is dealt twice`);
        seen.add(card);
      }
    }
    const each = this.deck.size / this.players;
    if (hands.length !== this.players || seen.size !== this.deck.size ||
        hands.some((h) => h.length !== each)) {
      fail('BAD_DEAL', `the deal must give ${each} cards to each of ${this.players} seats`);
    }
    this.round = new Round(this.players, this.deck, dealer, hands, this.bugs);
    this.scored = false;
    return this.round;
  }

  /** After a round: is the game over, and who deals next. */
  endRound() {
    const scores = this.round.scores();
    if (!this.scored) {
      scores.forEach((s, seat) => { this.totals[seat] += s; });
      this.scored = true;
    }
    const over = this.totals.some((t) => (this.bugs.has('target-strict') ? t > this.target : t >= this.target));
    return { over, nextDealer: over ? null : (this.round.dealer + 1) % this.players };
  }
}

module.exports = { BUGS, DECKS, EngineError, Game, checkConfig, checkDeck, Round, loadDeck, resolveTrick, sorted };
