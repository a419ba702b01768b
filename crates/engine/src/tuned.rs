//! Fitted evaluation weights, written by `mysl tune` (see docs/tuning.md). Do not edit by hand.
//! Fit: 452219 positions from 30910 games (-), every 4 quiet position after ply 10, 800 epochs,
//! K = 0.8302, mean squared error 0.137555 -> 0.130744.

use crate::eval::{Score, Weights};

#[rustfmt::skip]
const PARAMS: [(i32, i32); 534] = [
    (54, 153), // material pawn
    (260, 496), // material knight
    (282, 505), // material bishop
    (326, 836), // material rook
    (971, 1460), // material queen
    (0, 0), // material king
    (0, 0), // pst pawn a1
    (0, 0), // pst pawn b1
    (0, 0), // pst pawn c1
    (0, 0), // pst pawn d1
    (0, 0), // pst pawn e1
    (0, 0), // pst pawn f1
    (0, 0), // pst pawn g1
    (0, 0), // pst pawn h1
    (-35, 22), // pst pawn a2
    (-38, 10), // pst pawn b2
    (-18, 33), // pst pawn c2
    (-4, 97), // pst pawn d2
    (-19, 48), // pst pawn e2
    (15, 30), // pst pawn f2
    (22, -13), // pst pawn g2
    (-4, -20), // pst pawn h2
    (-47, 24), // pst pawn a3
    (-36, -1), // pst pawn b3
    (-37, 5), // pst pawn c3
    (-19, 17), // pst pawn d3
    (-11, 12), // pst pawn e3
    (5, 4), // pst pawn f3
    (10, -10), // pst pawn g3
    (-7, -17), // pst pawn h3
    (-22, 25), // pst pawn a4
    (-33, 18), // pst pawn b4
    (0, -20), // pst pawn c4
    (2, -18), // pst pawn d4
    (10, -4), // pst pawn e4
    (24, 2), // pst pawn f4
    (12, 3), // pst pawn g4
    (10, -14), // pst pawn h4
    (0, 56), // pst pawn a5
    (1, 15), // pst pawn b5
    (-4, 16), // pst pawn c5
    (13, -5), // pst pawn d5
    (36, -2), // pst pawn e5
    (52, 13), // pst pawn f5
    (27, 19), // pst pawn g5
    (58, 12), // pst pawn h5
    (-8, 90), // pst pawn a6
    (64, 20), // pst pawn b6
    (68, 35), // pst pawn c6
    (47, 53), // pst pawn d6
    (108, 2), // pst pawn e6
    (15, 88), // pst pawn f6
    (243, 35), // pst pawn g6
    (48, 80), // pst pawn h6
    (44, 152), // pst pawn a7
    (67, 96), // pst pawn b7
    (27, 146), // pst pawn c7
    (149, 75), // pst pawn d7
    (3, 133), // pst pawn e7
    (144, 51), // pst pawn f7
    (14, 43), // pst pawn g7
    (71, 116), // pst pawn h7
    (0, 0), // pst pawn a8
    (0, 0), // pst pawn b8
    (0, 0), // pst pawn c8
    (0, 0), // pst pawn d8
    (0, 0), // pst pawn e8
    (0, 0), // pst pawn f8
    (0, 0), // pst pawn g8
    (0, 0), // pst pawn h8
    (-179, -5), // pst knight a1
    (-21, -31), // pst knight b1
    (-56, 38), // pst knight c1
    (-62, 74), // pst knight d1
    (-24, 37), // pst knight e1
    (-35, 7), // pst knight f1
    (-6, -44), // pst knight g1
    (-109, 16), // pst knight h1
    (-15, -10), // pst knight a2
    (-69, 43), // pst knight b2
    (-37, 12), // pst knight c2
    (-22, -10), // pst knight d2
    (-8, 2), // pst knight e2
    (-10, 1), // pst knight f2
    (-45, 65), // pst knight g2
    (-11, 32), // pst knight h2
    (-50, -71), // pst knight a3
    (-40, -14), // pst knight b3
    (-37, 19), // pst knight c3
    (-11, 67), // pst knight d3
    (-14, 42), // pst knight e3
    (-11, -5), // pst knight f3
    (-6, 8), // pst knight g3
    (7, -5), // pst knight h3
    (-54, 62), // pst knight a4
    (1, 50), // pst knight b4
    (-5, 53), // pst knight c4
    (-15, 63), // pst knight d4
    (0, 69), // pst knight e4
    (13, 37), // pst knight f4
    (25, 34), // pst knight g4
    (1, 76), // pst knight h4
    (23, 38), // pst knight a5
    (-5, 3), // pst knight b5
    (3, 42), // pst knight c5
    (26, 56), // pst knight d5
    (-9, 80), // pst knight e5
    (25, 73), // pst knight f5
    (15, 35), // pst knight g5
    (57, 16), // pst knight h5
    (-23, 44), // pst knight a6
    (30, 7), // pst knight b6
    (-4, 52), // pst knight c6
    (77, 37), // pst knight d6
    (119, 28), // pst knight e6
    (183, -20), // pst knight f6
    (129, 42), // pst knight g6
    (74, 46), // pst knight h6
    (-44, 47), // pst knight a7
    (73, -19), // pst knight b7
    (45, -23), // pst knight c7
    (132, 31), // pst knight d7
    (79, 29), // pst knight e7
    (138, 18), // pst knight f7
    (102, -38), // pst knight g7
    (-18, 34), // pst knight h7
    (-154, 65), // pst knight a8
    (-193, 97), // pst knight b8
    (-50, 67), // pst knight c8
    (148, -5), // pst knight d8
    (14, 55), // pst knight e8
    (-50, 103), // pst knight f8
    (-54, 85), // pst knight g8
    (-160, 190), // pst knight h8
    (-15, 17), // pst bishop a1
    (51, -8), // pst bishop b1
    (-12, 23), // pst bishop c1
    (-50, 42), // pst bishop d1
    (-54, 54), // pst bishop e1
    (-12, 41), // pst bishop f1
    (-26, 53), // pst bishop g1
    (-8, 74), // pst bishop h1
    (14, 35), // pst bishop a2
    (7, -9), // pst bishop b2
    (16, 26), // pst bishop c2
    (-40, 40), // pst bishop d2
    (-38, 51), // pst bishop e2
    (22, -7), // pst bishop f2
    (16, 20), // pst bishop g2
    (10, 45), // pst bishop h2
    (-9, -14), // pst bishop a3
    (17, 41), // pst bishop b3
    (-22, 49), // pst bishop c3
    (-10, 42), // pst bishop d3
    (-8, 63), // pst bishop e3
    (-28, 24), // pst bishop f3
    (6, 21), // pst bishop g3
    (-11, 50), // pst bishop h3
    (43, 31), // pst bishop a4
    (-29, 35), // pst bishop b4
    (-12, 38), // pst bishop c4
    (11, 50), // pst bishop d4
    (21, 35), // pst bishop e4
    (-12, 39), // pst bishop f4
    (-32, 53), // pst bishop g4
    (21, 57), // pst bishop h4
    (-22, 68), // pst bishop a5
    (-14, 50), // pst bishop b5
    (7, 41), // pst bishop c5
    (18, 53), // pst bishop d5
    (21, 53), // pst bishop e5
    (15, 65), // pst bishop f5
    (3, 43), // pst bishop g5
    (-17, 51), // pst bishop h5
    (18, 31), // pst bishop a6
    (21, 53), // pst bishop b6
    (-18, 39), // pst bishop c6
    (-12, 27), // pst bishop d6
    (8, 67), // pst bishop e6
    (97, 38), // pst bishop f6
    (87, 11), // pst bishop g6
    (1, 57), // pst bishop h6
    (43, 17), // pst bishop a7
    (-31, 44), // pst bishop b7
    (-50, 56), // pst bishop c7
    (-5, 46), // pst bishop d7
    (-12, 64), // pst bishop e7
    (37, 10), // pst bishop f7
    (-106, 89), // pst bishop g7
    (-2, 66), // pst bishop h7
    (-59, 75), // pst bishop a8
    (-49, 48), // pst bishop b8
    (-161, 103), // pst bishop c8
    (-96, 79), // pst bishop d8
    (-41, 62), // pst bishop e8
    (-217, 53), // pst bishop f8
    (80, 51), // pst bishop g8
    (-173, -4), // pst bishop h8
    (-27, 56), // pst rook a1
    (-30, 38), // pst rook b1
    (-20, 44), // pst rook c1
    (-11, 38), // pst rook d1
    (-11, 26), // pst rook e1
    (-14, 45), // pst rook f1
    (13, -2), // pst rook g1
    (-18, 34), // pst rook h1
    (-49, 60), // pst rook a2
    (-54, 50), // pst rook b2
    (-31, 62), // pst rook c2
    (-29, 47), // pst rook d2
    (-50, 38), // pst rook e2
    (-13, 21), // pst rook f2
    (11, 41), // pst rook g2
    (16, -19), // pst rook h2
    (-45, 54), // pst rook a3
    (-43, 93), // pst rook b3
    (-48, 69), // pst rook c3
    (-41, 64), // pst rook d3
    (-10, 31), // pst rook e3
    (-9, 37), // pst rook f3
    (3, 62), // pst rook g3
    (-6, 35), // pst rook h3
    (-45, 76), // pst rook a4
    (-32, 83), // pst rook b4
    (-59, 89), // pst rook c4
    (-34, 93), // pst rook d4
    (-29, 73), // pst rook e4
    (-39, 95), // pst rook f4
    (5, 65), // pst rook g4
    (11, 47), // pst rook h4
    (15, 98), // pst rook a5
    (-29, 94), // pst rook b5
    (-11, 83), // pst rook c5
    (31, 71), // pst rook d5
    (13, 87), // pst rook e5
    (17, 108), // pst rook f5
    (75, 103), // pst rook g5
    (53, 63), // pst rook h5
    (-21, 121), // pst rook a6
    (16, 97), // pst rook b6
    (39, 99), // pst rook c6
    (63, 89), // pst rook d6
    (109, 58), // pst rook e6
    (109, 68), // pst rook f6
    (162, 52), // pst rook g6
    (70, 74), // pst rook h6
    (-19, 53), // pst rook a7
    (-22, 52), // pst rook b7
    (9, 39), // pst rook c7
    (12, 31), // pst rook d7
    (17, 18), // pst rook e7
    (14, 46), // pst rook f7
    (41, 23), // pst rook g7
    (42, 11), // pst rook h7
    (26, 112), // pst rook a8
    (22, 91), // pst rook b8
    (34, 107), // pst rook c8
    (46, 87), // pst rook d8
    (70, 103), // pst rook e8
    (131, 83), // pst rook f8
    (80, 97), // pst rook g8
    (135, 44), // pst rook h8
    (21, 0), // pst queen a1
    (-11, 21), // pst queen b1
    (-4, -21), // pst queen c1
    (-11, 31), // pst queen d1
    (8, -38), // pst queen e1
    (-8, -19), // pst queen f1
    (-93, -35), // pst queen g1
    (32, 11), // pst queen h1
    (-57, 115), // pst queen a2
    (-17, 13), // pst queen b2
    (-10, 56), // pst queen c2
    (-8, 5), // pst queen d2
    (-10, 28), // pst queen e2
    (-16, 26), // pst queen f2
    (62, -140), // pst queen g2
    (56, -91), // pst queen h2
    (6, -13), // pst queen a3
    (-16, 27), // pst queen b3
    (-1, 5), // pst queen c3
    (-40, 63), // pst queen d3
    (-21, 66), // pst queen e3
    (-19, 106), // pst queen f3
    (30, -11), // pst queen g3
    (37, 6), // pst queen h3
    (-24, 86), // pst queen a4
    (-51, 117), // pst queen b4
    (-9, 62), // pst queen c4
    (-21, 109), // pst queen d4
    (-33, 133), // pst queen e4
    (-21, 105), // pst queen f4
    (11, 88), // pst queen g4
    (23, 37), // pst queen h4
    (-29, 72), // pst queen a5
    (-16, 85), // pst queen b5
    (-61, 158), // pst queen c5
    (-15, 138), // pst queen d5
    (-32, 187), // pst queen e5
    (-6, 182), // pst queen f5
    (-39, 198), // pst queen g5
    (19, 90), // pst queen h5
    (15, -7), // pst queen a6
    (-18, 121), // pst queen b6
    (-17, 107), // pst queen c6
    (-75, 211), // pst queen d6
    (41, 130), // pst queen e6
    (69, 142), // pst queen f6
    (114, 128), // pst queen g6
    (11, 192), // pst queen h6
    (-48, 142), // pst queen a7
    (-50, 118), // pst queen b7
    (-36, 164), // pst queen c7
    (-66, 204), // pst queen d7
    (-62, 226), // pst queen e7
    (-9, 145), // pst queen f7
    (6, 130), // pst queen g7
    (57, 220), // pst queen h7
    (-51, 79), // pst queen a8
    (-36, 122), // pst queen b8
    (-44, 76), // pst queen c8
    (-23, 161), // pst queen d8
    (129, 38), // pst queen e8
    (-23, 185), // pst queen f8
    (-26, 184), // pst queen g8
    (28, 135), // pst queen h8
    (13, -97), // pst king a1
    (54, -99), // pst king b1
    (17, -64), // pst king c1
    (-73, -75), // pst king d1
    (5, -84), // pst king e1
    (-48, -61), // pst king f1
    (15, -83), // pst king g1
    (11, -119), // pst king h1
    (140, -100), // pst king a2
    (53, -57), // pst king b2
    (-27, -21), // pst king c2
    (-50, -36), // pst king d2
    (-32, -43), // pst king e2
    (-46, -22), // pst king f2
    (-20, -33), // pst king g2
    (-16, -53), // pst king h2
    (117, -52), // pst king a3
    (-94, -5), // pst king b3
    (-27, -19), // pst king c3
    (-70, -6), // pst king d3
    (-108, 16), // pst king e3
    (-63, -17), // pst king f3
    (-89, -5), // pst king g3
    (-101, -34), // pst king h3
    (-217, 16), // pst king a4
    (-67, 15), // pst king b4
    (20, 25), // pst king c4
    (-69, 33), // pst king d4
    (-99, 28), // pst king e4
    (-79, 10), // pst king f4
    (-118, 13), // pst king g4
    (-222, 13), // pst king h4
    (-226, 97), // pst king a5
    (36, 22), // pst king b5
    (36, 21), // pst king c5
    (-133, 71), // pst king d5
    (-199, 65), // pst king e5
    (95, 21), // pst king f5
    (-163, 86), // pst king g5
    (-318, 66), // pst king h5
    (-105, 52), // pst king a6
    (57, 72), // pst king b6
    (-18, 76), // pst king c6
    (-75, 74), // pst king d6
    (89, 24), // pst king e6
    (5, 79), // pst king f6
    (1, 117), // pst king g6
    (128, 63), // pst king h6
    (-43, -103), // pst king a7
    (116, 76), // pst king b7
    (266, 38), // pst king c7
    (-166, 96), // pst king d7
    (-9, 62), // pst king e7
    (75, 86), // pst king f7
    (105, 78), // pst king g7
    (15, 67), // pst king h7
    (6, 163), // pst king a8
    (30, -16), // pst king b8
    (-90, -50), // pst king c8
    (-52, 136), // pst king d8
    (-87, 86), // pst king e8
    (99, -13), // pst king f8
    (-3, -65), // pst king g8
    (-146, -68), // pst king h8
    (0, 0), // passed rank 1
    (89, 84), // passed rank 2
    (-74, 83), // passed rank 3
    (-23, 104), // passed rank 4
    (42, 98), // passed rank 5
    (103, 120), // passed rank 6
    (264, 303), // passed rank 7
    (0, 0), // passed rank 8
    (-12, -30), // isolated
    (-24, 0), // doubled
    (5, 10), // connected
    (23, 152), // bishop pair
    (26, 10), // rook open file
    (13, 8), // rook half-open file
    (-4, 72), // rook seventh
    (10, 8), // pawn shield
    (-12, -5), // backward
    (0, 0), // candidate rank 1
    (6, 1), // candidate rank 2
    (9, 25), // candidate rank 3
    (9, 33), // candidate rank 4
    (7, 42), // candidate rank 5
    (-65, 212), // candidate rank 6
    (0, 0), // candidate rank 7
    (0, 0), // candidate rank 8
    (23, 10), // outpost knight
    (42, 4), // outpost bishop
    (4, -6), // threat by pawn on pawn
    (13, 59), // threat by pawn on knight
    (12, 98), // threat by pawn on bishop
    (15, 82), // threat by pawn on rook
    (18, 51), // threat by pawn on queen
    (0, 0), // threat by pawn on king
    (11, 48), // threat by minor on pawn
    (-21, 38), // threat by minor on knight
    (10, 20), // threat by minor on bishop
    (28, 36), // threat by minor on rook
    (12, 48), // threat by minor on queen
    (0, 0), // threat by minor on king
    (12, 55), // threat by rook on pawn
    (44, -3), // threat by rook on knight
    (22, 36), // threat by rook on bishop
    (-24, 0), // threat by rook on rook
    (25, 53), // threat by rook on queen
    (0, 0), // threat by rook on king
    (2, 14), // hanging
    (0, 0), // passed rank 1 their king distance
    (-6, -11), // passed rank 2 their king distance
    (-6, 6), // passed rank 3 their king distance
    (-23, 27), // passed rank 4 their king distance
    (-6, 31), // passed rank 5 their king distance
    (-8, 55), // passed rank 6 their king distance
    (1, 51), // passed rank 7 their king distance
    (0, 0), // passed rank 8 their king distance
    (0, 0), // passed rank 1 our king distance
    (-10, -3), // passed rank 2 our king distance
    (28, -17), // passed rank 3 our king distance
    (28, -32), // passed rank 4 our king distance
    (7, -21), // passed rank 5 our king distance
    (-8, -27), // passed rank 6 our king distance
    (-27, -60), // passed rank 7 our king distance
    (0, 0), // passed rank 8 our king distance
    (0, 0), // passed rank 1 blocked
    (-38, 25), // passed rank 2 blocked
    (12, -11), // passed rank 3 blocked
    (-41, -13), // passed rank 4 blocked
    (-19, -45), // passed rank 5 blocked
    (8, -82), // passed rank 6 blocked
    (-83, -99), // passed rank 7 blocked
    (0, 0), // passed rank 8 blocked
    (0, 0), // passed rank 1 free
    (-43, 29), // passed rank 2 free
    (-21, 20), // passed rank 3 free
    (-57, 35), // passed rank 4 free
    (-120, 64), // passed rank 5 free
    (31, 20), // passed rank 6 free
    (76, 36), // passed rank 7 free
    (0, 0), // passed rank 8 free
    (-5, -338), // mobility knight 0
    (-33, -59), // mobility knight 1
    (-37, 35), // mobility knight 2
    (-30, 73), // mobility knight 3
    (-21, 95), // mobility knight 4
    (-8, 113), // mobility knight 5
    (2, 119), // mobility knight 6
    (5, 122), // mobility knight 7
    (10, 100), // mobility knight 8
    (-55, -103), // mobility bishop 0
    (-70, -18), // mobility bishop 1
    (-48, 10), // mobility bishop 2
    (-46, 49), // mobility bishop 3
    (-39, 70), // mobility bishop 4
    (-29, 91), // mobility bishop 5
    (-21, 95), // mobility bishop 6
    (-22, 104), // mobility bishop 7
    (-18, 111), // mobility bishop 8
    (-23, 113), // mobility bishop 9
    (-2, 102), // mobility bishop 10
    (37, 82), // mobility bishop 11
    (77, 115), // mobility bishop 12
    (-50, 89), // mobility bishop 13
    (-40, -256), // mobility rook 0
    (-33, 14), // mobility rook 1
    (-35, 95), // mobility rook 2
    (-34, 115), // mobility rook 3
    (-26, 125), // mobility rook 4
    (-27, 131), // mobility rook 5
    (-22, 143), // mobility rook 6
    (-18, 155), // mobility rook 7
    (-15, 160), // mobility rook 8
    (-8, 166), // mobility rook 9
    (-2, 169), // mobility rook 10
    (-9, 183), // mobility rook 11
    (1, 181), // mobility rook 12
    (39, 170), // mobility rook 13
    (55, 141), // mobility rook 14
    (-98, -40), // mobility queen 0
    (-27, -66), // mobility queen 1
    (-38, -10), // mobility queen 2
    (-50, 40), // mobility queen 3
    (-36, 19), // mobility queen 4
    (-36, 120), // mobility queen 5
    (-40, 165), // mobility queen 6
    (-35, 178), // mobility queen 7
    (-35, 181), // mobility queen 8
    (-31, 221), // mobility queen 9
    (-32, 234), // mobility queen 10
    (-24, 242), // mobility queen 11
    (-32, 259), // mobility queen 12
    (-20, 242), // mobility queen 13
    (-10, 259), // mobility queen 14
    (-15, 261), // mobility queen 15
    (-14, 270), // mobility queen 16
    (-4, 269), // mobility queen 17
    (2, 286), // mobility queen 18
    (0, 262), // mobility queen 19
    (-37, 326), // mobility queen 20
    (0, 275), // mobility queen 21
    (-1, 294), // mobility queen 22
    (186, 152), // mobility queen 23
    (105, 241), // mobility queen 24
    (221, 149), // mobility queen 25
    (162, 201), // mobility queen 26
    (124, 185), // mobility queen 27
];

/// The fitted weights; parameters added after this fit keep their initial values.
pub fn weights() -> Option<Weights> {
    let mut w = Weights::initial();
    for (p, &(m, e)) in w.params.iter_mut().zip(PARAMS.iter()) {
        *p = Score(m, e);
    }
    Some(w)
}
