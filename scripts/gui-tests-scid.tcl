# mysl as SCID's analysis engine, through SCID's own engine window (windows/engine.tcl) and engine
# communication code (enginecomm.tcl), the code a user's clicks run. Started by scripts/gui-tests-scid.sh:
#
#   HOME=DIR xvfb-run tkscid scripts/gui-tests-scid.tcl MYSL RESULTS CHECK...
#
# This file loads SCID's start-up script (/usr/games/scid: the main window, the options, every module),
# then, once SCID is idle, acts as a user would: adds mysl to the engine list, opens an engine window,
# plays a move on the board, changes the number of lines, pastes a FEN, stops and closes the engine.
# CHECK: scid-uci-analysis, scid-xboard-analysis (the engine window, Windows > Engine) and
# scid-uci-analysis-window, scid-xboard-analysis-window (the older analysis window, Tools > Analysis
# engine, F2). Results go to RESULTS as `PASS name: ...` or `FAIL name: reason`. The shell script runs
# one SCID per check (SCID's older window keeps state between engines of different protocols). SCID turns each PV into SAN with `sc_pos coordToSAN`: a PV
# that is not legal in the position SCID analyses fails (the user would see `illegal_pv!`).

set mysl [lindex $argv 0]
set resultsFile [lindex $argv 1]
set checks [lrange $argv 2 end]
set results [open $resultsFile w]
fconfigure $results -buffering line
set argv {}
set argc 0

proc result {line} { puts $::results $line }

# SCID itself: everything the `scid` command loads, the main window included.
source /usr/games/scid

# Every PV SCID displays, as (engine id, multipv, depth, score type, score, UCI moves, SAN or error).
set ::pvs {}
rename ::enginewin::updateDisplay ::enginewin::updateDisplay_scid
proc ::enginewin::updateDisplay {id msgData} {
    if {$msgData ne ""} {
        lassign $msgData multipv depth seldepth nodes nps hashfull tbhits time score score_type wdl pv
        set position [set ::enginewin::position_$id]
        if {[catch {sc_pos coordToSAN $position $pv} san]} {
            set san "illegal_pv! $san"
        }
        lappend ::pvs [list $id $multipv $depth $score_type $score $pv $san $position]
        checkRanking $id $position $multipv $depth $score_type $score
    }
    ::enginewin::updateDisplay_scid $id $msgData
}

# The lines SCID shows are ranked: of the lines it shows for the same position and depth (exact scores
# only), line i never scores below line i + 1. Breaches go to ::disorder.
set ::disorder {}
proc checkRanking {id position multipv depth type score} {
    if {$type ni {cp mate} || ![string is integer -strict $depth]} {
        unset -nocomplain ::shown($id,$position,$multipv)
        return
    }
    set value [expr {$type eq "cp" ? $score : ($score > 0 ? 100000 - $score : -100000 - $score)}]
    set ::shown($id,$position,$multipv) [list $depth $value "$type $score"]
    foreach key [array names ::shown "$id,$position,*"] {
        set other [lindex [split $key ,] end]
        lassign $::shown($key) d v text
        if {$d != $depth || $other == $multipv} { continue }
        if {($other < $multipv && $v < $value) || ($other > $multipv && $v > $value)} {
            lappend ::disorder "depth $depth: line $other ($text) and line $multipv ($type $score)"
        }
    }
}

# Waits (serving SCID's events) until `cond` holds or `ms` pass; returns whether it holds.
proc waitUntil {cond ms} {
    set deadline [expr {[clock milliseconds] + $ms}]
    while {![uplevel #0 [list expr $cond]]} {
        if {[clock milliseconds] > $deadline} { return 0 }
        set ::tick 0
        after 50 {set ::tick 1}
        vwait ::tick
    }
    return 1
}

proc pvsSince {n} { return [lrange $::pvs $n end] }

# PVs after index n for positions containing `text` (in the UCI `position` command SCID made).
proc pvsFor {n text} {
    set out {}
    foreach p [pvsSince $n] {
        if {[string first $text [lindex $p 7]] >= 0} { lappend out $p }
    }
    return $out
}

proc maxDepth {pvs} {
    set d 0
    foreach p $pvs {
        if {[string is integer -strict [lindex $p 2]] && [lindex $p 2] > $d} { set d [lindex $p 2] }
    }
    return $d
}

proc illegal {pvs} {
    set bad {}
    foreach p $pvs {
        if {[string match "illegal_pv!*" [lindex $p 6]] || [lindex $p 5] eq ""} {
            lappend bad "[lindex $p 5] in [lindex $p 7]"
        }
    }
    return $bad
}

proc enginePid {id} {
    if {[catch {::engine::pid $id} pid]} { return "" }
    return $pid
}

# Whether a process runs (a zombie waiting to be reaped by SCID counts as ended).
proc alive {pid} {
    if {$pid eq "" || [catch {open /proc/$pid/status} f]} { return 0 }
    set status [read $f]
    close $f
    return [expr {![regexp {State:\s+Z} $status]}]
}

# One engine window with mysl over `protocol` (uci or xboard); returns a list of problems.
proc checkEngine {name protocol} {
    set problems {}
    set uci [expr {$protocol eq "uci" ? 1 : 0}]
    # name cmd args dir elo last-used url(score side, notation, wrap, debug frame, priority, port) protocol options
    ::enginecfg::add [list $name $::mysl $protocol {} {} 0 [list white 1 word true normal ""] $uci {}]
    sc_game new
    ::notify::GameChanged

    # 1. Open the engine window and start it on the initial position.
    set n [llength $::pvs]
    set id [::enginewin::start "" $name]
    if {![waitUntil "\[maxDepth \[pvsSince $n\]\] >= 6" 30000]} {
        lappend problems "start position: depth [maxDepth [pvsSince $n]] after 30 s"
    }
    set depth1 [maxDepth [pvsSince $n]]
    set startPid [enginePid $id]

    # 2. The user plays 1.e4 on the board: the engine analyses the new position.
    set n [llength $::pvs]
    addSanMove e4
    if {![waitUntil "\[maxDepth \[pvsFor $n e2e4\]\] >= 6" 30000]} {
        lappend problems "after 1.e4: depth [maxDepth [pvsFor $n e2e4]] after 30 s"
    }

    # 3. Three lines (the window's MultiPV spinbox), UCI only: mysl's xboard mode has no MultiPV option.
    set lines 1
    if {$uci} {
        set sb .engineWin$id.btn.multipv
        if {[$sb cget -state] ne "normal"} {
            lappend problems "the MultiPV spinbox is disabled (no MultiPV option seen)"
        } else {
            set n [llength $::pvs]
            $sb set 3
            uplevel #0 [$sb cget -command]
            set cond "\[llength \[lsearch -all -index 1 \[pvsSince $n\] 3\]\] > 0 && \[maxDepth \[pvsSince $n\]\] >= 6"
            if {![waitUntil $cond 30000]} {
                lappend problems "MultiPV 3: no third line after 30 s"
            }
            set lines 3
        }
    }

    # 4. A pasted FEN (WAC.001, mate in 2): a mate score for the new position.
    set fen "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
    set n [llength $::pvs]
    clipboard clear
    clipboard append $fen
    pasteFEN
    set cond "\[llength \[lsearch -all -index 3 \[pvsFor $n {$fen}\] mate\]\] > 0"
    if {![waitUntil $cond 30000]} {
        lappend problems "no mate score in the mate-in-2 position after 30 s"
    } else {
        set best [lindex [lsearch -inline -index 3 [pvsFor $n $fen] mate] 5]
        if {![string match "g3g6*" $best]} {
            lappend problems "mate in 2: the mating line is $best, not g3g6"
        }
    }

    # 5. Stop: the window goes back to idle.
    ::enginewin::stop $id
    if {![waitUntil "\$::enginewin::engState($id) eq {idle}" 10000]} {
        lappend problems "not idle 10 s after stop (state $::enginewin::engState($id))"
    }

    if {[llength $::disorder]} {
        lappend problems "lines shown out of order ([llength $::disorder] times), first: [lindex $::disorder 0]"
    }
    set bad [illegal $::pvs]
    if {[llength $bad]} {
        lappend problems "[llength $bad] PVs SCID could not read, first: [lindex $bad 0]"
    }

    # The engine's side of the conversation (the window's debug frame): no errors.
    set log [.engineWin$id.debug.lines get 1.0 end]
    set f [open "$::resultsFile.$protocol.log" w]
    puts $f $log
    foreach p $::pvs { puts $f "PV $p" }
    close $f
    foreach line [split $log "\n"] {
        if {[regexp {^\([0-9.]+\) (info string error|Error|tellusererror|Illegal move)} $line]} {
            lappend problems "engine said: $line"
        }
    }

    # 6. Close the window: SCID sends quit; the engine process ends.
    destroy .engineWin$id
    if {$startPid ne "" && ![waitUntil "!\[alive $startPid\]" 10000]} {
        lappend problems "the engine (pid $startPid) still runs 10 s after the window closed"
    }

    set count [llength [lsearch -all -index 0 $::pvs $id]]
    set summary "$count PVs, all legal; depth $depth1 on the start position, $lines line(s), mate found, stopped and closed"
    return [list $problems $summary]
}

# SCID's older analysis window (Tools > Analysis engine, F2: tools/analysis.tcl, and tools/uci.tcl for UCI)
# with mysl over `protocol`; returns a list of problems and a summary.
set ::awPvs {}
proc recordAnalysis {args} {
    set pv $::analysis(moves1)
    if {$pv eq ""} { return }
    set pos [sc_game UCI_currentPos]
    set state legal
    if {[catch {sc_pos coordToSAN $pos $pv}]} {
        # A line of the position analysed just before, still arriving: SCID's race, not the engine's.
        set state [expr {[catch {sc_pos coordToSAN $::awPrevPos $pv}] ? "illegal" : "stale"}]
    }
    lappend ::awPvs [list $::analysis(depth1) $pv $pos $state]
}

proc awDepth {text} {
    set d 0
    foreach p $::awPvs {
        if {[string first $text [lindex $p 2]] >= 0 && [lindex $p 3] eq "legal" && [lindex $p 0] > $d} {
            set d [lindex $p 0]
        }
    }
    return $d
}

proc checkAnalysisWindow {name protocol} {
    set problems {}
    set uci [expr {$protocol eq "uci" ? 1 : 0}]
    set entry [::enginecfg::add [list $name $::mysl $protocol {} {} 0 {} $uci {}]]
    # F2 starts the first engine of the list: put this one first, as a user who picked it would have.
    set idx [lsearch -exact -index 0 $::engines(list) [lindex $entry 0]]
    set ::engines(list) [linsert [lreplace $::engines(list) $idx $idx] 0 $entry]
    sc_game new
    ::notify::GameChanged
    set ::awPvs {}
    set ::awPrevPos [sc_game UCI_currentPos]
    trace add variable ::analysis(moves1) write recordAnalysis
    makeAnalysisWin 1 0
    if {![winfo exists .analysisWin1]} {
        return [list [list "the analysis window did not open"] ""]
    }
    set pid [pid $::analysis(pipe1)]
    # SCID's xboard code asks for the engine's features only after a second of silence, and its first
    # `analyze` goes out before they are known: the start position is not analysed (SCID's limitation).
    if {$uci && ![waitUntil {[awDepth "startpos moves"] >= 6} 30000]} {
        lappend problems "start position: depth [awDepth {startpos moves}] after 30 s"
    }
    if {!$uci} { waitUntil {$::analysis(has_analyze1)} 10000 }

    set ::awPrevPos [sc_game UCI_currentPos]
    addSanMove e4
    if {![waitUntil {[awDepth "moves e2e4"] >= 6} 30000]} {
        lappend problems "after 1.e4: depth [awDepth {moves e2e4}] after 30 s"
    }

    set fen "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
    set ::awPrevPos [sc_game UCI_currentPos]
    clipboard clear
    clipboard append $fen
    pasteFEN
    set found {[llength [lsearch -all -glob -index 1 [lsearch -all -inline -index 3 $::awPvs legal] "g3g6 *"]] > 0}
    if {![waitUntil $found 30000]} {
        lappend problems "the mate in 2 (g3g6) not shown after 30 s"
    }

    set illegal [lsearch -all -inline -index 3 $::awPvs illegal]
    if {[llength $illegal]} {
        lappend problems "[llength $illegal] lines not legal, first: [lrange [lindex $illegal 0] 0 2]"
    }
    set stale [llength [lsearch -all -index 3 $::awPvs stale]]

    destroy .analysisWin1
    trace remove variable ::analysis(moves1) write recordAnalysis
    if {![waitUntil "!\[alive $pid\]" 10000]} {
        lappend problems "the engine (pid $pid) still runs 10 s after the window closed"
    }
    # SCID's engine log: no errors from the engine, except SCID's own `ponder off`, not a CECP command.
    if {![catch {open [file join $::scidLogDir engine1.log]} f]} {
        set log [read $f]
        close $f
        file copy -force [file join $::scidLogDir engine1.log] "$::resultsFile.window-$protocol.log"
        foreach line [split $log "\n"] {
            if {[regexp {^Engine: (info string error|Error|tellusererror|Illegal move)} $line]
                && ![string match "*: ponder off" $line]} {
                lappend problems "engine said: [string range $line 8 end]"
            }
        }
    } else {
        lappend problems "no engine log"
    }
    set summary "[llength $::awPvs] lines, all legal[expr {$stale ? " ($stale of the previous position arriving late)" : ""}]; depth [awDepth {moves e2e4}] after 1.e4, mate found, closed"
    return [list $problems $summary]
}

proc runChecks {} {
    foreach name $::checks {
        if {![regexp {^scid-(uci|xboard)-analysis(-window)?$} $name -> protocol window]} {
            result "FAIL $name: unknown check"
            continue
        }
        set ::pvs {}
        set ::disorder {}
        array unset ::shown
        if {$window ne ""} {
            set cmd [list checkAnalysisWindow "mysl $protocol (F2)" $protocol]
        } else {
            set cmd [list checkEngine "mysl $protocol" $protocol]
        }
        if {[catch $cmd r]} {
            result "FAIL $name: Tcl error: $r"
            continue
        }
        lassign $r problems summary
        if {[llength $problems]} {
            result "FAIL $name: [join $problems {; }]"
        } else {
            result "PASS $name: $summary"
        }
    }
    close $::results
    exit 0
}

# Start once SCID's start-up has finished and the main window is drawn.
after 500 [list after idle runChecks]
