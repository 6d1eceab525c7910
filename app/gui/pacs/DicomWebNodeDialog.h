#pragma once
// Adds or edits a DICOMweb node (Edit > Preferences > DICOM nodes > Add DICOMweb…): its name,
// the base URL of its studies route, how it authenticates us (none, Basic with a user and
// password, Bearer with a token), a CA file to trust for its certificate, and whether what is
// sent to it is de-identified. The password or token goes to the keychain, not the settings.
#include <QDialog>
#include <string>

#include "core/pacs/DicomNode.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace delineate::app {

class DicomWebNodeDialog : public QDialog {
  Q_OBJECT

 public:
  DicomWebNodeDialog(const core::pacs::DicomNode& node, QWidget* parent = nullptr);

  core::pacs::DicomNode node() const;
  // What was typed in the password or token field; empty: keep the kept one.
  std::string secret() const;

 private:
  void update();

  QLineEdit* name_;
  QLineEdit* url_;
  QComboBox* auth_;
  QLineEdit* user_;
  QLineEdit* secret_;
  QLineEdit* ca_;
  QCheckBox* deidentify_;
  QLabel* problem_;
  QDialogButtonBox* buttons_;
};

}  // namespace delineate::app
