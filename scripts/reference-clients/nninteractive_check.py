# nnInteractive's own remote client (nnInteractive/inference/remote, imported from an nnInteractive
# source tree's client/ folder, with blosc2.py beside this file standing in for python-blosc2 on
# the real c-blosc2) against delineate-server: a box, points, undo, a scribble, reset, an empty
# answer (an all-zero chunk), an initial segmentation, on Colin27's left caudate (AAL).
# Usage: nninteractive_check.py URL NNINTERACTIVE_SRC API_KEY. Exit status 1 on any failure.
import os
import sys

import nibabel as nib
import numpy as np

url, src, key = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, src + "/client")
from nnInteractive.inference.remote import nnInteractiveRemoteInferenceSession  # noqa: E402

failed = 0


def check(name, good, detail=""):
    global failed
    failed += 0 if good else 1
    print("ok  " if good else "FAIL", name, detail)


t = "/usr/share/mricron/templates/"
image = np.asarray(nib.load(t + "ch2.nii.gz").dataobj).astype(np.float32)
truth = np.transpose(np.asarray(nib.load(t + "aal.nii.gz").dataobj) == 71, (2, 1, 0))  # z, y, x
s = nnInteractiveRemoteInferenceSession(url, api_key=key)
check("claim and capabilities", s.supports_undo, str(s.supported_interactions))
s.set_image(np.ascontiguousarray(np.transpose(image, (2, 1, 0)))[None], {"spacing": [1.0, 1.0, 1.0]})
buf = np.zeros(truth.shape, np.uint8)
s.set_target_buffer(buf)


def dice():
    return 2 * (buf.astype(bool) & truth).sum() / (buf.astype(bool).sum() + truth.sum())


zs = np.where(truth.any((1, 2)))[0]
zm = (zs[0] + zs[-1]) // 2
ys, xs = np.where(truth[zm])
s.add_bbox_interaction([[zm, zm + 1], [ys.min(), ys.max() + 1], [xs.min(), xs.max() + 1]], True)
boxed = dice()
check("a 2-D box", boxed > 0.5, "Dice %.3f" % boxed)
s.add_point_interaction([5, 5, 5], include_interaction=False)
check("a negative point far away changes nothing", abs(dice() - boxed) < 1e-9, "Dice %.3f" % dice())
miss = np.argwhere(truth & (buf == 0))
z, y, x = (int(v) for v in miss[len(miss) // 2])
s.add_point_interaction([z, y, x], include_interaction=True)
check("a positive point in a miss", dice() > boxed, "Dice %.3f" % dice())
check("undo", s.undo() and abs(dice() - boxed) < 1e-9, "Dice %.3f" % dice())
check("a second undo does nothing", not s.undo())
stroke = np.zeros(truth.shape, np.uint8)
stroke[zm, ys.min() + 2 : ys.max() - 1, (xs.min() + xs.max()) // 2] = truth[zm, ys.min() + 2 : ys.max() - 1, (xs.min() + xs.max()) // 2]
s.add_scribble_interaction(stroke, include_interaction=True)
check("a scribble (whole-volume mask)", dice() > 0.5, "Dice %.3f" % dice())
s.reset_interactions()
buf[:] = 0
s.add_point_interaction([z, y, x], include_interaction=True)
check("after a reset, a point", buf.sum() > 0, "%d voxels" % buf.sum())
s.add_point_interaction([z, y, x], include_interaction=False)
check("the same voxel negative: an empty answer read", buf.sum() == 0, "%d voxels" % buf.sum())
check("undo to the point's answer", s.undo() and buf.sum() > 0, "%d voxels" % buf.sum())
s.add_initial_seg_interaction(truth.astype(np.uint8), run_prediction=False)
check("an initial segmentation", True)
s.close()
sys.exit(1 if failed else 0)
