// A hegemon bot in Go: a gRPC server for bot.proto (hegemon's protocol, package hegemon.v1).
//
//	./build.sh                              # generates the stubs, compiles ./bot
//	./bot --address unix:/tmp/somewhere/bot.sock
//	HEGEMON_BOT_ADDRESS=127.0.0.1:50051 ./bot
//
// The stubs (bot.pb.go, bot_grpc.pb.go) are generated from bot.proto by build.sh into this
// package, so they always match the protocol file beside them. The bot also serves the
// standard health service (grpc.health.v1.Health), as every bot must.
//
// It asks for the legal answers of every decision (HelloReply.legal_answers) and answers from
// them, so it checks itself: checked() refuses anything the lists do not hold and falls back
// to the default answer, saying so on stderr (the bot's log). Strategy: claim the first free
// territory offered; put every army on the territory that borders the most enemies; trade the
// first set only when forced; attack wherever the source outnumbers the target (the best
// odds first, with the most dice); defend and occupy with the most; never fortify. Each
// placement and attack carries a note and a mark for the replay (DecideReply.notes).
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

const (
	botName    = "go-starter"
	botVersion = "0.1"
)

// game is what the bot keeps of one game between its calls.
type game struct {
	seat  int32
	board *Board
}

// server implements hegemon.v1.Bot.
type server struct {
	UnimplementedBotServer
	mu    sync.Mutex
	games map[string]*game // by game_id
}

func (s *server) Hello(ctx context.Context, r *HelloRequest) (*HelloReply, error) {
	return &HelloReply{
		Name:            botName,
		Version:         botVersion,
		ProtocolVersion: uint32(ProtocolVersion_PROTOCOL_VERSION_1),
		LegalAnswers:    true, // every DecideRequest lists the legal answers (request.Legal)
		DecideStream:    true, // one stream a game carries the decisions (DecideStream)
	}, nil
}

func (s *server) StartGame(ctx context.Context, r *StartGameRequest) (*StartGameReply, error) {
	if r.GetBoard() == nil || len(r.GetBoard().GetTerritories()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "StartGame without a map")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.games[r.GetGameId()] = &game{seat: r.GetSeat(), board: r.GetBoard()}
	return &StartGameReply{}, nil
}

func (s *server) Decide(ctx context.Context, r *DecideRequest) (*DecideReply, error) {
	s.mu.Lock()
	g := s.games[r.GetGameId()]
	s.mu.Unlock()
	if g == nil {
		return nil, status.Errorf(codes.FailedPrecondition, "unknown game %s", r.GetGameId())
	}
	if r.GetError() != "" {
		fmt.Fprintf(os.Stderr, "%s: game %s: refused: %s\n", botName, r.GetGameId(), r.GetError())
	}
	notes := &Notes{}
	action := checked(r, decide(g, r, notes))
	reply := &DecideReply{GameId: r.GetGameId(), Action: action}
	if notes.Text != "" || len(notes.Marks) > 0 {
		reply.Notes = notes
	}
	return reply, nil
}

// DecideStream answers a game's decisions on one stream: each request as Decide would, in
// order, with its number; a refused request is a reply that says why (Refused), and the
// stream goes on until the referee ends it.
func (s *server) DecideStream(stream Bot_DecideStreamServer) error {
	for {
		r, err := stream.Recv()
		if err != nil {
			return nil // the referee ended the stream (io.EOF) or cancelled it: the game is over
		}
		reply, err := s.Decide(stream.Context(), r)
		if err != nil {
			st := status.Convert(err)
			reply = &DecideReply{Refused: st.Message(), RefusedCode: uint32(st.Code())}
		}
		reply.Number = r.GetNumber()
		if err := stream.Send(reply); err != nil {
			return err
		}
	}
}

func (s *server) EndGame(ctx context.Context, r *EndGameRequest) (*EndGameReply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.games, r.GetGameId())
	return &EndGameReply{}, nil
}

// ------------------------------------------------------------------ the strategy

func pass() *Action { return &Action{Kind: &Action_Pass_{Pass_: &Pass{}}} }

// note adds a line to the decision's notes and, when to >= 0, an arrow (else a highlight).
func note(notes *Notes, text string, territory, to int32, label, colour string) {
	if notes.Text != "" {
		notes.Text += " | "
	}
	notes.Text += text
	mark := &Mark{Territory: territory, Label: label, Colour: colour}
	if to >= 0 {
		mark.To = &to
	}
	notes.Marks = append(notes.Marks, mark)
}

// enemyNeighbours counts the territories bordering t that another seat holds.
func enemyNeighbours(g *game, view *View, t int32) int {
	count := 0
	for _, n := range g.board.GetTerritories()[t].GetNeighbours() {
		if o := view.GetOwner()[n]; o >= 0 && o != g.seat {
			count++
		}
	}
	return count
}

// decide answers one decision from the request and the game's board alone.
func decide(g *game, r *DecideRequest, notes *Notes) *Action {
	d, view, legal := r.GetDecision(), r.GetView(), r.GetLegal()
	territories := g.board.GetTerritories()
	switch d.GetKind() {
	case DecisionKind_DECISION_KIND_CLAIM:
		return &Action{Kind: &Action_Claim{Claim: &Claim{Territory: d.GetTerritories()[0]}}}

	case DecisionKind_DECISION_KIND_PLACE:
		best, most := legal.GetTerritories()[0], -1
		for _, t := range legal.GetTerritories() {
			if n := enemyNeighbours(g, view, t); n > most {
				best, most = t, n
			}
		}
		note(notes, fmt.Sprintf("%d on %s: %d enemy neighbours", d.GetArmies(), territories[best].GetName(), most),
			best, -1, fmt.Sprintf("+%d", d.GetArmies()), "green")
		placements := []*Placement{{Territory: best, Armies: d.GetArmies()}}
		return &Action{Kind: &Action_Place{Place: &Place{Placements: placements}}}

	case DecisionKind_DECISION_KIND_TRADE:
		if d.GetForced() && len(legal.GetSets()) > 0 {
			return &Action{Kind: &Action_Trade{Trade: &Trade{Cards: legal.GetSets()[0].GetCards()}}}
		}
		return pass()

	case DecisionKind_DECISION_KIND_ATTACK:
		var best *AttackOption
		edge := int32(0)
		for _, a := range legal.GetAttacks() {
			if e := view.GetArmies()[a.GetSource()] - view.GetArmies()[a.GetTarget()]; e > edge {
				best, edge = a, e
			}
		}
		if best == nil && !legal.GetPassAllowed() && len(legal.GetAttacks()) > 0 {
			best = legal.GetAttacks()[0] // forced to attack: the first one listed
		}
		if best == nil {
			return pass()
		}
		src, dst := best.GetSource(), best.GetTarget()
		note(notes, fmt.Sprintf("%s (%d) against %s (%d)", territories[src].GetName(), view.GetArmies()[src],
			territories[dst].GetName(), view.GetArmies()[dst]),
			src, dst, fmt.Sprintf("%d vs %d", view.GetArmies()[src], view.GetArmies()[dst]), "red")
		attack := &Attack{Source: src, Target: dst, Dice: best.GetMostDice()}
		return &Action{Kind: &Action_Attack{Attack: attack}}

	case DecisionKind_DECISION_KIND_DEFEND:
		return &Action{Kind: &Action_Defend{Defend: &Defend{Dice: d.GetMaximum()}}}

	case DecisionKind_DECISION_KIND_OCCUPY:
		return &Action{Kind: &Action_Occupy{Occupy: &Occupy{Armies: d.GetMaximum()}}}

	case DecisionKind_DECISION_KIND_PLACE_NEUTRAL:
		// Two-player games: the armies go to the neutrals' territories listed, at most
		// d.Maximum (when not 0) on any one neutral seat.
		given := map[int32]int32{}
		placed := map[int32]int32{}
		left := d.GetArmies()
		for left > 0 {
			progress := false
			for _, t := range legal.GetTerritories() {
				seat := view.GetOwner()[t]
				if left > 0 && (d.GetMaximum() == 0 || given[seat] < d.GetMaximum()) {
					given[seat]++
					placed[t]++
					left--
					progress = true
				}
			}
			if !progress {
				break
			}
		}
		var placements []*Placement
		for _, t := range legal.GetTerritories() {
			if placed[t] > 0 {
				placements = append(placements, &Placement{Territory: t, Armies: placed[t]})
			}
		}
		return &Action{Kind: &Action_PlaceNeutral{PlaceNeutral: &PlaceNeutral{Placements: placements}}}

	case DecisionKind_DECISION_KIND_CAPITAL:
		return &Action{Kind: &Action_Capital{Capital: &Capital{Territory: d.GetTerritories()[0]}}}

	default: // FORTIFY, BRIBE, REINFORCE_ALLY, FORTIFY_ALLY, BUILD_CENTRE: decline
		return pass()
	}
}

// checked returns action if the legal answers hold it, else the default answer (pass where
// allowed, else the first legal answer), and says why on stderr. Only the kinds the lists
// cover are checked; the others are bounded by the Decision itself.
func checked(r *DecideRequest, action *Action) *Action {
	legal := r.GetLegal()
	if legal == nil {
		return action // the referee did not send the lists (an older referee)
	}
	why := ""
	switch a := action.GetKind().(type) {
	case *Action_Pass_:
		if !legal.GetPassAllowed() {
			why = "pass is not allowed"
		}
	case *Action_Trade:
		why = "not a set"
		for _, set := range legal.GetSets() {
			if fmt.Sprint(set.GetCards()) == fmt.Sprint(a.Trade.GetCards()) {
				why = ""
			}
		}
	case *Action_Attack:
		why = "not a legal attack"
		for _, o := range legal.GetAttacks() {
			at := a.Attack
			if o.GetSource() == at.GetSource() && o.GetTarget() == at.GetTarget() &&
				at.GetDice() >= o.GetLeastDice() && at.GetDice() <= o.GetMostDice() {
				why = ""
			}
		}
	case *Action_Place:
		for _, p := range a.Place.GetPlacements() {
			if !contains(legal.GetTerritories(), p.GetTerritory()) {
				why = fmt.Sprintf("territory %d may not take armies", p.GetTerritory())
			}
		}
	}
	if why == "" {
		return action
	}
	fmt.Fprintf(os.Stderr, "%s: game %s: my answer %v is illegal (%s): sending the default\n",
		botName, r.GetGameId(), action, why)
	switch {
	case legal.GetPassAllowed():
		return pass()
	case len(legal.GetSets()) > 0:
		return &Action{Kind: &Action_Trade{Trade: &Trade{Cards: legal.GetSets()[0].GetCards()}}}
	case len(legal.GetAttacks()) > 0:
		o := legal.GetAttacks()[0]
		return &Action{Kind: &Action_Attack{Attack: &Attack{Source: o.GetSource(), Target: o.GetTarget(), Dice: o.GetLeastDice()}}}
	}
	return action
}

func contains(list []int32, x int32) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// ------------------------------------------------------------------ the service

// listen opens the address the referee gives: unix:PATH (a socket file) or host:port.
func listen(address string) (net.Listener, error) {
	if path := strings.TrimPrefix(address, "unix:"); path != address {
		return net.Listen("unix", strings.TrimPrefix(path, "//"))
	}
	return net.Listen("tcp", address)
}

func main() {
	address := flag.String("address", os.Getenv("HEGEMON_BOT_ADDRESS"),
		"the gRPC address to serve, e.g. unix:/tmp/hegemon/bot.sock or 127.0.0.1:50051 (default: $HEGEMON_BOT_ADDRESS)")
	flag.Parse()
	if *address == "" {
		fmt.Fprintf(os.Stderr, "%s: no address: give --address ADDR or set HEGEMON_BOT_ADDRESS\n", botName)
		os.Exit(2)
	}
	lis, err := listen(*address)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot listen on %s: %v\n", botName, *address, err)
		os.Exit(1)
	}
	srv := grpc.NewServer()
	RegisterBotServer(srv, &server{games: map[string]*game{}})
	healthpb.RegisterHealthServer(srv, health.NewServer()) // answers SERVING
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-stop; srv.GracefulStop() }()
	fmt.Fprintf(os.Stderr, "%s %s: listening on %s\n", botName, botVersion, *address)
	if err := srv.Serve(lis); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", botName, err)
		os.Exit(1)
	}
}
