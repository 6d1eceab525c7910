# MONAI Label's own Python client (monailabel/client/client.py, imported from a MONAI Label source
# tree) against delineate-server: the calls 3D Slicer's module makes, with a DICOM series' name as
# the image id and the ROI as Slicer sends it. Usage: monai_label_check.py URL MONAILABEL_SRC
# IMAGE.nii.gz LABEL.nii.gz. Prints one line per call; exit status 1 when any call fails.
import json
import sys
import time

url, src, image, label = sys.argv[1:5]
sys.path.insert(0, src + "/monailabel/client")
from client import MONAILabelClient  # noqa: E402

c = MONAILabelClient(url)
failed = 0


def check(name, f, want=lambda r: True):
    global failed
    try:
        r = f()
        good = want(r)
    except Exception as e:  # the client raises its own exception types
        r, good = f"{type(e).__name__}: {e}", False
    failed += 0 if good else 1
    print("ok  " if good else "FAIL", name, json.dumps(r, default=str)[:160])
    return r


image_id = "2: AX T1"  # a DICOM series' name, as Slicer uses it
check("info", c.info, lambda r: "local_deepgrow" in r["models"])
check("upload_image", lambda: c.upload_image(image, image_id=image_id), lambda r: r["image"] == image_id)
check("datastore", c.datastore, lambda r: image_id in r["objects"])
check("next_sample", lambda: c.next_sample("random", {}), lambda r: r.get("id") == image_id)
click = {"foreground": [[90, 108, 72]], "background": []}
check("infer by id", lambda: c.infer("local_deepgrow", image_id, click), lambda r: r[0] and r[1]["label_names"])
roi = dict(click, roi=[110, 70, 130, 90, 72, 72])  # corners high first, a flat slice
check("infer with Slicer's roi", lambda: c.infer("local_deepgrow", image_id, roi), lambda r: r[0])
s = check("create_session", lambda: c.create_session(image), lambda r: r["session_id"])
sid = s["session_id"] if isinstance(s, dict) else ""
check("get_session", lambda: c.get_session(sid), lambda r: r["name"] == sid and "expiry" in r)
check("infer by session", lambda: c.infer("local_deepgrow", "", click, session_id=sid), lambda r: r[0])
check("remove_session", lambda: c.remove_session(sid))
check("save_label", lambda: c.save_label(image_id, label, tag="final"), lambda r: r["image"] == image_id)
check("next_sample when all are labelled", lambda: c.next_sample("random", {}), lambda r: r == {})
check("training not running", lambda: c.train_status(check_if_running=True), lambda r: r is False)
check("train_start", lambda: c.train_start("local_deepgrow", {}), lambda r: r["status"] == "SUBMITTED")
time.sleep(0.5)
check("training running", lambda: c.train_status(check_if_running=True), lambda r: r is True)
check("train_stats' epoch", lambda: c.info()["train_stats"]["local_deepgrow"], lambda r: "epoch" in r)
check("train_stop", c.train_stop, lambda r: r["status"] == "STOPPED" and r["details"])
check("train_stop with none running", c.train_stop, lambda r: r is None)
check("training stopped", lambda: c.train_status(check_if_running=True), lambda r: r is False)
sys.exit(1 if failed else 0)
