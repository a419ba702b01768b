//! Fitted evaluation weights, written by `mysl tune` (see docs/tuning.md). Do not edit by hand.
//! Fit: 452219 positions from 30910 games (-), every 4 quiet position after ply 10, 800 epochs,
//! K = 0.8307, mean squared error 0.137416 -> 0.130613.

use crate::eval::{Score, Weights};

#[rustfmt::skip]
const PARAMS: [(i32, i32); 566] = [
    (55, 152), // material pawn
    (264, 493), // material knight
    (286, 503), // material bishop
    (334, 832), // material rook
    (963, 1462), // material queen
    (0, 0), // material king
    (0, 0), // pst pawn a1
    (0, 0), // pst pawn b1
    (0, 0), // pst pawn c1
    (0, 0), // pst pawn d1
    (0, 0), // pst pawn e1
    (0, 0), // pst pawn f1
    (0, 0), // pst pawn g1
    (0, 0), // pst pawn h1
    (-36, 22), // pst pawn a2
    (-38, 10), // pst pawn b2
    (-18, 32), // pst pawn c2
    (-4, 98), // pst pawn d2
    (-19, 47), // pst pawn e2
    (15, 30), // pst pawn f2
    (21, -13), // pst pawn g2
    (-4, -20), // pst pawn h2
    (-48, 24), // pst pawn a3
    (-36, -1), // pst pawn b3
    (-37, 5), // pst pawn c3
    (-20, 17), // pst pawn d3
    (-12, 11), // pst pawn e3
    (5, 4), // pst pawn f3
    (10, -10), // pst pawn g3
    (-8, -17), // pst pawn h3
    (-23, 25), // pst pawn a4
    (-33, 19), // pst pawn b4
    (0, -21), // pst pawn c4
    (2, -18), // pst pawn d4
    (10, -4), // pst pawn e4
    (24, 2), // pst pawn f4
    (12, 4), // pst pawn g4
    (9, -13), // pst pawn h4
    (0, 56), // pst pawn a5
    (1, 16), // pst pawn b5
    (-3, 17), // pst pawn c5
    (13, -5), // pst pawn d5
    (36, -2), // pst pawn e5
    (54, 14), // pst pawn f5
    (28, 19), // pst pawn g5
    (58, 12), // pst pawn h5
    (-8, 90), // pst pawn a6
    (64, 21), // pst pawn b6
    (70, 36), // pst pawn c6
    (48, 55), // pst pawn d6
    (112, 3), // pst pawn e6
    (19, 89), // pst pawn f6
    (249, 35), // pst pawn g6
    (49, 80), // pst pawn h6
    (41, 153), // pst pawn a7
    (64, 97), // pst pawn b7
    (24, 148), // pst pawn c7
    (149, 76), // pst pawn d7
    (11, 131), // pst pawn e7
    (153, 52), // pst pawn f7
    (20, 42), // pst pawn g7
    (78, 116), // pst pawn h7
    (0, 0), // pst pawn a8
    (0, 0), // pst pawn b8
    (0, 0), // pst pawn c8
    (0, 0), // pst pawn d8
    (0, 0), // pst pawn e8
    (0, 0), // pst pawn f8
    (0, 0), // pst pawn g8
    (0, 0), // pst pawn h8
    (-176, -3), // pst knight a1
    (-19, -30), // pst knight b1
    (-54, 38), // pst knight c1
    (-60, 75), // pst knight d1
    (-22, 37), // pst knight e1
    (-32, 7), // pst knight f1
    (-4, -43), // pst knight g1
    (-105, 16), // pst knight h1
    (-12, -9), // pst knight a2
    (-67, 45), // pst knight b2
    (-35, 12), // pst knight c2
    (-20, -10), // pst knight d2
    (-6, 3), // pst knight e2
    (-8, 0), // pst knight f2
    (-43, 65), // pst knight g2
    (-9, 33), // pst knight h2
    (-48, -70), // pst knight a3
    (-38, -13), // pst knight b3
    (-35, 19), // pst knight c3
    (-9, 66), // pst knight d3
    (-12, 41), // pst knight e3
    (-10, -6), // pst knight f3
    (-4, 8), // pst knight g3
    (9, -4), // pst knight h3
    (-52, 63), // pst knight a4
    (4, 48), // pst knight b4
    (-2, 52), // pst knight c4
    (-14, 63), // pst knight d4
    (2, 68), // pst knight e4
    (14, 35), // pst knight f4
    (25, 33), // pst knight g4
    (2, 74), // pst knight h4
    (24, 38), // pst knight a5
    (-3, 3), // pst knight b5
    (5, 41), // pst knight c5
    (27, 54), // pst knight d5
    (-12, 78), // pst knight e5
    (22, 71), // pst knight f5
    (9, 34), // pst knight g5
    (54, 16), // pst knight h5
    (-24, 44), // pst knight a6
    (31, 7), // pst knight b6
    (-3, 52), // pst knight c6
    (74, 36), // pst knight d6
    (110, 27), // pst knight e6
    (175, -19), // pst knight f6
    (123, 44), // pst knight g6
    (66, 46), // pst knight h6
    (-42, 47), // pst knight a7
    (74, -19), // pst knight b7
    (45, -22), // pst knight c7
    (126, 32), // pst knight d7
    (71, 29), // pst knight e7
    (131, 16), // pst knight f7
    (103, -38), // pst knight g7
    (-26, 33), // pst knight h7
    (-153, 65), // pst knight a8
    (-194, 99), // pst knight b8
    (-49, 67), // pst knight c8
    (147, -4), // pst knight d8
    (5, 55), // pst knight e8
    (-38, 99), // pst knight f8
    (-45, 83), // pst knight g8
    (-168, 191), // pst knight h8
    (-14, 15), // pst bishop a1
    (51, -9), // pst bishop b1
    (-11, 23), // pst bishop c1
    (-48, 41), // pst bishop d1
    (-53, 53), // pst bishop e1
    (-11, 41), // pst bishop f1
    (-26, 53), // pst bishop g1
    (-4, 70), // pst bishop h1
    (15, 35), // pst bishop a2
    (8, -10), // pst bishop b2
    (17, 25), // pst bishop c2
    (-39, 39), // pst bishop d2
    (-37, 51), // pst bishop e2
    (23, -8), // pst bishop f2
    (17, 20), // pst bishop g2
    (11, 45), // pst bishop h2
    (-8, -16), // pst bishop a3
    (17, 39), // pst bishop b3
    (-22, 48), // pst bishop c3
    (-10, 41), // pst bishop d3
    (-8, 63), // pst bishop e3
    (-28, 24), // pst bishop f3
    (7, 22), // pst bishop g3
    (-10, 50), // pst bishop h3
    (44, 30), // pst bishop a4
    (-29, 34), // pst bishop b4
    (-12, 36), // pst bishop c4
    (11, 48), // pst bishop d4
    (20, 34), // pst bishop e4
    (-11, 39), // pst bishop f4
    (-30, 51), // pst bishop g4
    (22, 55), // pst bishop h4
    (-21, 67), // pst bishop a5
    (-13, 50), // pst bishop b5
    (6, 40), // pst bishop c5
    (16, 52), // pst bishop d5
    (20, 52), // pst bishop e5
    (13, 64), // pst bishop f5
    (4, 41), // pst bishop g5
    (-19, 49), // pst bishop h5
    (19, 30), // pst bishop a6
    (21, 52), // pst bishop b6
    (-16, 38), // pst bishop c6
    (-15, 27), // pst bishop d6
    (4, 66), // pst bishop e6
    (92, 38), // pst bishop f6
    (79, 10), // pst bishop g6
    (-5, 56), // pst bishop h6
    (45, 18), // pst bishop a7
    (-29, 45), // pst bishop b7
    (-49, 55), // pst bishop c7
    (-3, 45), // pst bishop d7
    (-14, 64), // pst bishop e7
    (29, 12), // pst bishop f7
    (-118, 93), // pst bishop g7
    (-11, 69), // pst bishop h7
    (-61, 77), // pst bishop a8
    (-43, 47), // pst bishop b8
    (-154, 102), // pst bishop c8
    (-94, 79), // pst bishop d8
    (-46, 62), // pst bishop e8
    (-216, 53), // pst bishop f8
    (74, 52), // pst bishop g8
    (-191, -3), // pst bishop h8
    (-25, 61), // pst rook a1
    (-28, 42), // pst rook b1
    (-18, 47), // pst rook c1
    (-9, 42), // pst rook d1
    (-9, 29), // pst rook e1
    (-12, 46), // pst rook f1
    (13, 1), // pst rook g1
    (-17, 38), // pst rook h1
    (-47, 64), // pst rook a2
    (-51, 54), // pst rook b2
    (-28, 65), // pst rook c2
    (-26, 48), // pst rook d2
    (-48, 39), // pst rook e2
    (-12, 21), // pst rook f2
    (11, 42), // pst rook g2
    (16, -15), // pst rook h2
    (-42, 58), // pst rook a3
    (-41, 96), // pst rook b3
    (-46, 72), // pst rook c3
    (-38, 65), // pst rook d3
    (-7, 31), // pst rook e3
    (-10, 36), // pst rook f3
    (-1, 62), // pst rook g3
    (-5, 39), // pst rook h3
    (-43, 78), // pst rook a4
    (-29, 85), // pst rook b4
    (-56, 90), // pst rook c4
    (-30, 93), // pst rook d4
    (-26, 72), // pst rook e4
    (-41, 95), // pst rook f4
    (2, 64), // pst rook g4
    (9, 49), // pst rook h4
    (18, 98), // pst rook a5
    (-26, 94), // pst rook b5
    (-7, 83), // pst rook c5
    (35, 70), // pst rook d5
    (16, 85), // pst rook e5
    (17, 106), // pst rook f5
    (74, 101), // pst rook g5
    (52, 62), // pst rook h5
    (-18, 120), // pst rook a6
    (18, 96), // pst rook b6
    (41, 97), // pst rook c6
    (63, 88), // pst rook d6
    (110, 55), // pst rook e6
    (101, 67), // pst rook f6
    (155, 52), // pst rook g6
    (62, 74), // pst rook h6
    (-16, 51), // pst rook a7
    (-22, 51), // pst rook b7
    (11, 37), // pst rook c7
    (10, 32), // pst rook d7
    (16, 17), // pst rook e7
    (9, 45), // pst rook f7
    (30, 23), // pst rook g7
    (31, 11), // pst rook h7
    (21, 115), // pst rook a8
    (16, 92), // pst rook b8
    (30, 108), // pst rook c8
    (39, 87), // pst rook d8
    (59, 103), // pst rook e8
    (120, 84), // pst rook f8
    (47, 103), // pst rook g8
    (117, 48), // pst rook h8
    (27, 7), // pst queen a1
    (-6, 28), // pst queen b1
    (1, -13), // pst queen c1
    (-5, 42), // pst queen d1
    (14, -28), // pst queen e1
    (-2, -15), // pst queen f1
    (-87, -33), // pst queen g1
    (40, 17), // pst queen h1
    (-52, 122), // pst queen a2
    (-11, 19), // pst queen b2
    (-5, 64), // pst queen c2
    (-2, 13), // pst queen d2
    (-4, 37), // pst queen e2
    (-10, 30), // pst queen f2
    (68, -140), // pst queen g2
    (63, -91), // pst queen h2
    (10, -5), // pst queen a3
    (-10, 32), // pst queen b3
    (4, 11), // pst queen c3
    (-36, 71), // pst queen d3
    (-15, 73), // pst queen e3
    (-14, 109), // pst queen f3
    (33, -10), // pst queen g3
    (38, 11), // pst queen h3
    (-19, 92), // pst queen a4
    (-47, 122), // pst queen b4
    (-5, 70), // pst queen c4
    (-16, 110), // pst queen d4
    (-30, 138), // pst queen e4
    (-18, 104), // pst queen f4
    (14, 86), // pst queen g4
    (24, 30), // pst queen h4
    (-24, 80), // pst queen a5
    (-10, 94), // pst queen b5
    (-58, 166), // pst queen c5
    (-15, 146), // pst queen d5
    (-30, 185), // pst queen e5
    (-10, 181), // pst queen f5
    (-39, 193), // pst queen g5
    (15, 83), // pst queen h5
    (20, -1), // pst queen a6
    (-10, 123), // pst queen b6
    (-11, 108), // pst queen c6
    (-76, 212), // pst queen d6
    (34, 130), // pst queen e6
    (50, 145), // pst queen f6
    (91, 132), // pst queen g6
    (-2, 181), // pst queen h6
    (-47, 146), // pst queen a7
    (-49, 121), // pst queen b7
    (-37, 166), // pst queen c7
    (-68, 207), // pst queen d7
    (-71, 226), // pst queen e7
    (-22, 146), // pst queen f7
    (-9, 136), // pst queen g7
    (42, 228), // pst queen h7
    (-55, 80), // pst queen a8
    (-44, 124), // pst queen b8
    (-54, 74), // pst queen c8
    (-44, 168), // pst queen d8
    (105, 38), // pst queen e8
    (-53, 193), // pst queen f8
    (-43, 181), // pst queen g8
    (3, 136), // pst queen h8
    (7, -98), // pst king a1
    (49, -97), // pst king b1
    (10, -61), // pst king c1
    (-77, -71), // pst king d1
    (-2, -79), // pst king e1
    (-52, -57), // pst king f1
    (8, -79), // pst king g1
    (3, -119), // pst king h1
    (134, -99), // pst king a2
    (55, -54), // pst king b2
    (-22, -18), // pst king c2
    (-44, -33), // pst king d2
    (-25, -40), // pst king e2
    (-40, -20), // pst king f2
    (-20, -31), // pst king g2
    (-19, -54), // pst king h2
    (107, -49), // pst king a3
    (-85, -4), // pst king b3
    (-9, -18), // pst king c3
    (-43, -7), // pst king d3
    (-83, 14), // pst king e3
    (-39, -19), // pst king f3
    (-76, -6), // pst king g3
    (-103, -35), // pst king h3
    (-220, 16), // pst king a4
    (-45, 14), // pst king b4
    (56, 21), // pst king c4
    (-36, 30), // pst king d4
    (-60, 24), // pst king e4
    (-50, 7), // pst king f4
    (-95, 10), // pst king g4
    (-219, 10), // pst king h4
    (-228, 99), // pst king a5
    (74, 18), // pst king b5
    (69, 17), // pst king c5
    (-104, 69), // pst king d5
    (-170, 62), // pst king e5
    (129, 18), // pst king f5
    (-156, 85), // pst king g5
    (-319, 66), // pst king h5
    (-107, 53), // pst king a6
    (62, 72), // pst king b6
    (4, 73), // pst king c6
    (-53, 72), // pst king d6
    (96, 24), // pst king e6
    (16, 77), // pst king f6
    (21, 114), // pst king g6
    (119, 64), // pst king h6
    (-48, -104), // pst king a7
    (123, 76), // pst king b7
    (268, 39), // pst king c7
    (-136, 92), // pst king d7
    (-17, 62), // pst king e7
    (81, 84), // pst king f7
    (100, 77), // pst king g7
    (24, 66), // pst king h7
    (9, 166), // pst king a8
    (28, -20), // pst king b8
    (-79, -55), // pst king c8
    (-57, 132), // pst king d8
    (-70, 84), // pst king e8
    (86, -15), // pst king f8
    (-3, -68), // pst king g8
    (-146, -70), // pst king h8
    (0, 0), // passed rank 1
    (71, 86), // passed rank 2
    (-83, 84), // passed rank 3
    (-21, 103), // passed rank 4
    (51, 97), // passed rank 5
    (110, 118), // passed rank 6
    (277, 302), // passed rank 7
    (0, 0), // passed rank 8
    (-12, -30), // isolated
    (-24, 0), // doubled
    (5, 10), // connected
    (24, 150), // bishop pair
    (26, 11), // rook open file
    (13, 8), // rook half-open file
    (-7, 73), // rook seventh
    (9, 7), // pawn shield
    (-12, -5), // backward
    (0, 0), // candidate rank 1
    (6, 1), // candidate rank 2
    (8, 26), // candidate rank 3
    (9, 33), // candidate rank 4
    (7, 43), // candidate rank 5
    (-64, 213), // candidate rank 6
    (0, 0), // candidate rank 7
    (0, 0), // candidate rank 8
    (23, 11), // outpost knight
    (42, 4), // outpost bishop
    (5, -6), // threat by pawn on pawn
    (13, 60), // threat by pawn on knight
    (12, 97), // threat by pawn on bishop
    (19, 79), // threat by pawn on rook
    (15, 52), // threat by pawn on queen
    (0, 0), // threat by pawn on king
    (11, 48), // threat by minor on pawn
    (-22, 37), // threat by minor on knight
    (10, 19), // threat by minor on bishop
    (29, 35), // threat by minor on rook
    (12, 47), // threat by minor on queen
    (0, 0), // threat by minor on king
    (13, 56), // threat by rook on pawn
    (44, -4), // threat by rook on knight
    (23, 35), // threat by rook on bishop
    (-21, -3), // threat by rook on rook
    (25, 54), // threat by rook on queen
    (0, 0), // threat by rook on king
    (3, 15), // hanging
    (0, 0), // passed rank 1 their king distance
    (-2, -11), // passed rank 2 their king distance
    (-2, 5), // passed rank 3 their king distance
    (-21, 27), // passed rank 4 their king distance
    (-5, 31), // passed rank 5 their king distance
    (-7, 54), // passed rank 6 their king distance
    (3, 51), // passed rank 7 their king distance
    (0, 0), // passed rank 8 their king distance
    (0, 0), // passed rank 1 our king distance
    (-10, -3), // passed rank 2 our king distance
    (26, -16), // passed rank 3 our king distance
    (25, -31), // passed rank 4 our king distance
    (5, -20), // passed rank 5 our king distance
    (-10, -26), // passed rank 6 our king distance
    (-30, -60), // passed rank 7 our king distance
    (0, 0), // passed rank 8 our king distance
    (0, 0), // passed rank 1 blocked
    (-40, 26), // passed rank 2 blocked
    (13, -12), // passed rank 3 blocked
    (-43, -12), // passed rank 4 blocked
    (-20, -45), // passed rank 5 blocked
    (7, -82), // passed rank 6 blocked
    (-87, -98), // passed rank 7 blocked
    (0, 0), // passed rank 8 blocked
    (0, 0), // passed rank 1 free
    (-45, 29), // passed rank 2 free
    (-18, 19), // passed rank 3 free
    (-52, 34), // passed rank 4 free
    (-111, 62), // passed rank 5 free
    (35, 20), // passed rank 6 free
    (75, 37), // passed rank 7 free
    (0, 0), // passed rank 8 free
    (34, -3), // king danger 0
    (29, 2), // king danger 8
    (14, -3), // king danger 16
    (8, -16), // king danger 24
    (-33, 23), // king danger 32
    (-37, -4), // king danger 40
    (-19, -28), // king danger 48
    (-109, 9), // king danger 56
    (-121, 11), // king danger 64
    (-86, -12), // king danger 72
    (-144, -43), // king danger 80
    (-194, 34), // king danger 88
    (-203, -17), // king danger 96
    (-313, -30), // king danger 104
    (-314, -9), // king danger 112
    (-410, -45), // king danger 120
    (-354, -78), // king danger 128
    (-576, -190), // king danger 136
    (-514, -130), // king danger 144
    (-572, -196), // king danger 152
    (-494, -87), // king danger 160
    (-536, -114), // king danger 168
    (-400, -40), // king danger 176
    (-428, -54), // king danger 184
    (-400, -40), // king danger 192
    (-400, -40), // king danger 200
    (-400, -40), // king danger 208
    (-400, -40), // king danger 216
    (-400, -40), // king danger 224
    (-400, -40), // king danger 232
    (-400, -40), // king danger 240
    (-400, -40), // king danger 248
    (-5, -339), // mobility knight 0
    (-32, -59), // mobility knight 1
    (-37, 35), // mobility knight 2
    (-29, 73), // mobility knight 3
    (-20, 94), // mobility knight 4
    (-8, 113), // mobility knight 5
    (3, 119), // mobility knight 6
    (5, 121), // mobility knight 7
    (10, 100), // mobility knight 8
    (-53, -102), // mobility bishop 0
    (-68, -18), // mobility bishop 1
    (-47, 10), // mobility bishop 2
    (-45, 49), // mobility bishop 3
    (-37, 70), // mobility bishop 4
    (-28, 90), // mobility bishop 5
    (-20, 94), // mobility bishop 6
    (-21, 103), // mobility bishop 7
    (-18, 109), // mobility bishop 8
    (-22, 112), // mobility bishop 9
    (-3, 102), // mobility bishop 10
    (34, 81), // mobility bishop 11
    (65, 117), // mobility bishop 12
    (-56, 90), // mobility bishop 13
    (-41, -252), // mobility rook 0
    (-32, 14), // mobility rook 1
    (-34, 95), // mobility rook 2
    (-33, 115), // mobility rook 3
    (-25, 125), // mobility rook 4
    (-27, 130), // mobility rook 5
    (-22, 142), // mobility rook 6
    (-18, 154), // mobility rook 7
    (-15, 157), // mobility rook 8
    (-8, 163), // mobility rook 9
    (-3, 165), // mobility rook 10
    (-10, 179), // mobility rook 11
    (-1, 176), // mobility rook 12
    (36, 164), // mobility rook 13
    (56, 132), // mobility rook 14
    (-91, -39), // mobility queen 0
    (-27, -61), // mobility queen 1
    (-37, 3), // mobility queen 2
    (-50, 50), // mobility queen 3
    (-36, 25), // mobility queen 4
    (-36, 125), // mobility queen 5
    (-40, 169), // mobility queen 6
    (-36, 180), // mobility queen 7
    (-36, 184), // mobility queen 8
    (-32, 223), // mobility queen 9
    (-33, 236), // mobility queen 10
    (-25, 243), // mobility queen 11
    (-34, 260), // mobility queen 12
    (-22, 243), // mobility queen 13
    (-13, 258), // mobility queen 14
    (-18, 259), // mobility queen 15
    (-17, 269), // mobility queen 16
    (-9, 269), // mobility queen 17
    (-3, 285), // mobility queen 18
    (-3, 260), // mobility queen 19
    (-45, 324), // mobility queen 20
    (-7, 272), // mobility queen 21
    (-4, 287), // mobility queen 22
    (182, 143), // mobility queen 23
    (103, 228), // mobility queen 24
    (206, 139), // mobility queen 25
    (149, 192), // mobility queen 26
    (129, 176), // mobility queen 27
];

/// The fitted weights; parameters added after this fit keep their initial values.
pub fn weights() -> Option<Weights> {
    let mut w = Weights::initial();
    for (p, &(m, e)) in w.params.iter_mut().zip(PARAMS.iter()) {
        *p = Score(m, e);
    }
    Some(w)
}
